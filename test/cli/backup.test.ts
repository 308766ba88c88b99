import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { connect } from '../../src/db/connect.js';
import { createCms } from '../../src/index.js';
import { runIn } from '../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cms-backup-'));
  dirs.push(dir);
  return dir;
}
const env = (dir: string) => ({ CMS_DATA_DIR: dir, CMS_LOG_LEVEL: 'silent' });

describe('cms backup and cms restore [sqlite]', () => {
  it('copies a site while it keeps writing, and restores it into an empty data directory only', async () => {
    const site = tempDir();
    const cms = await createCms({ config: resolveConfig({ dataDir: site, logLevel: 'silent' }), scheduler: false });
    try {
      // Writes go on through the site's own connection while the backup copies through another.
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          cms.database
            .sqliteFile!.native.prepare("insert into _cms_migrations (name, applied_at) values (?, 'x')")
            .run(`zz_write_${written++}`);
          await new Promise((r) => setImmediate(r));
        }
      })();
      const out = join(tempDir(), 'b');
      const res = await runIn(site, ['backup', out], env(site));
      writing = false;
      await writer;
      expect(res.code, res.stderr).toBe(0);
      const manifest = JSON.parse(res.stdout);
      expect(manifest.migrations).toBeGreaterThan(0);
      expect(manifest.migrations).toBeLessThanOrEqual(17 + written);

      const again = await runIn(site, ['backup', out], env(site));
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('TARGET_NOT_EMPTY');

      const target = tempDir();
      const restored = await runIn(target, ['restore', out], env(target));
      expect(restored.code, restored.stderr).toBe(0);
      const copy = connect(`sqlite:${join(target, 'cms.db')}`);
      const { rows } = await sql<{ n: number }>`select count(*) as n from _cms_migrations`.execute(copy.db);
      await copy.close();
      // The copy is the consistent state of one moment: exactly what the manifest counted.
      expect(rows[0]!.n).toBe(manifest.migrations);
      const twice = await runIn(target, ['restore', out], env(target));
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain('TARGET_NOT_EMPTY');
    } finally {
      await cms.close();
    }
  });
});

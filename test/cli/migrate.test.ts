import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';
import { cliSite, describeEachTarget, runIn } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/db.js';
import { pgUrlWithSchema } from '../helpers/process.js';

describeEachTarget('cms migrate', (kind) => {
  it('applies every migration to an empty database, and is refused for a site', async () => {
    if (kind === 'http') {
      const site = await cliSite('http');
      const res = await site.run(['migrate']);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('cms migrate works on the local database only');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'cms-migrate-'));
    const pg = kind === 'postgres' ? await freshDatabase('postgres') : null;
    const url = pg ? pgUrlWithSchema(pg.url, pg.schema!) : `sqlite:${join(dir, 'cms.db')}`;
    try {
      const res = await runIn(dir, ['migrate'], { CMS_DATA_DIR: dir, CMS_DATABASE_URL: url, CMS_LOG_LEVEL: 'silent' });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('Database is up to date\n');
      expect(res.stdout).toBe('');
      const db = pg ? pg.database : connect(url);
      try {
        const { rows } = await sql<{ name: string }>`select name from _cms_migrations order by name`.execute(db.db);
        expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name).sort());
      } finally {
        if (!pg) await db.close();
      }
    } finally {
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

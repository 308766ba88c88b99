import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { SAMPLE } from '../api/import/sample-wxr.js';
import { cliSite } from '../helpers/cli.js';
import { postgresAvailable } from '../helpers/db.js';

/** `cms import wordpress`: analyze, prepare and import on the local database, progress on stderr. */
for (const kind of ['sqlite', 'postgres'] as const) {
  it.skipIf(kind === 'postgres' && !postgresAvailable)(
    `imports an export and re-runs safely [local ${kind}]`,
    async () => {
      const site = await cliSite(kind);
      writeFileSync(join(site.dir, 'export.xml.gz'), gzipSync(SAMPLE));
      const analysis = await site.run(['import', 'wordpress', 'export.xml.gz', '--analyze-only', '--json']);
      expect(analysis.code, analysis.stderr).toBe(0);
      expect(analysis.json().postTypes.map((p: any) => p.name)).toEqual(['post', 'page', 'product']);

      const first = await site.run(['import', 'wordpress', 'export.xml.gz', '--map', 'product=', '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('done: 11/11 items');
      const r = first.json();
      expect(r.byCollection.posts.imported).toBe(4);
      expect(r.byPostType.product.byReason).toEqual({ not_selected: 1 });
      expect(r.imported + r.skipped + r.failed).toBe(r.items);

      const again = await site.run(['import', 'wordpress', 'export.xml.gz', '--map', 'product=', '--skip-existing']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('Imported 0, skipped 11, failed 0 of 11 items');

      const clash = await site.run(['import', 'wordpress', 'export.xml.gz', '--map', 'product=']);
      expect(clash.code).not.toBe(0);
      expect(clash.stderr).toContain('items failed');
    },
  );
}

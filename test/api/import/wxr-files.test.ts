import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { fileCounts, importExport, wxrBytes } from '../../helpers/wxr.js';

/**
 * Every real export in the test data, imported once per database: the
 * imported counts match the file's own counts (read with plain regular
 * expressions), every item is accounted for, and a re-run with skipExisting
 * imports nothing twice.
 */
const FILES = [
  'themeunittestdata.wordpress.xml',
  '64-block-test-data.xml',
  'gutenberg-test-data.xml',
  'jetpack-shortcode-test-data.xml',
  'theme-preview.xml',
  'wordpress-10k.wxr.xml.gz',
];

const CONTENT = { post: 'posts', page: 'pages' } as Record<string, string>;

async function rowCount(cms: Awaited<ReturnType<typeof testCms>>, table: string, where?: [string, string]) {
  let q = (cms.ctx.db as any).selectFrom(table).select((eb: any) => eb.fn.countAll().as('n'));
  if (where) q = q.where(where[0], '=', where[1]);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

describeEachDialect('WordPress import of real exports', (dialect) => {
  for (const name of FILES) {
    it(`${name}: every item accounted for, counts match the file, re-run imports nothing twice`, {
      timeout: 240_000,
    }, async () => {
      const cms = await testCms(dialect);
      const counts = fileCounts(name);
      const file = wxrBytes(name);
      const { analysis, result } = await importExport(cms, cms.adminToken, file);
      expect(result.status, JSON.stringify(result.body).slice(0, 2000)).toBe(200);
      const r = result.body.data;

      expect(analysis.items).toBe(counts.items);
      expect(r.items).toBe(counts.items);
      expect(r.imported + r.skipped + r.failed).toBe(counts.items);
      expect(r.errors, JSON.stringify(r.errors.slice(0, 5))).toEqual([]);

      let comments = 0;
      for (const [type, t] of Object.entries(counts.byType)) {
        const collection = CONTENT[type];
        if (!collection) continue;
        expect(analysis.postTypes.find((p: any) => p.name === type)?.count).toBe(t.total);
        expect(r.byCollection[collection]?.imported, `${type} imported`).toBe(t.total);
        expect(await rowCount(cms, `ec_${collection}`)).toBe(t.total);
        expect(await rowCount(cms, `ec_${collection}`, ['status', 'published'])).toBe(t.publish);
        comments += t.comments;
      }
      expect(r.comments.imported + r.comments.skipped).toBe(comments);
      expect(await rowCount(cms, '_cms_comments')).toBe(r.comments.imported);
      expect(r.media.attachments.length).toBe(counts.byType.attachment?.total ?? 0);
      const navItems = counts.byType.nav_menu_item?.total ?? 0;
      expect(r.menus.items.imported + r.menus.items.failed + r.menus.items.skipped).toBe(navItems);
      expect(await rowCount(cms, '_cms_menu_items')).toBe(r.menus.items.imported);

      // A published post is readable through the content API like any other entry.
      const posts = await call(cms, 'GET', '/content/posts?limit=1', { token: cms.adminToken });
      if (counts.byType.post?.total) expect(posts.body.data.items.length).toBe(1);

      const again = await importExport(cms, cms.adminToken, file, { skipExisting: true });
      expect(again.result.status).toBe(200);
      const r2 = again.result.body.data;
      expect(r2.imported).toBe(0);
      expect(r2.failed).toBe(0);
      expect(r2.skipped).toBe(counts.items);
      for (const [type, t] of Object.entries(counts.byType)) {
        if (CONTENT[type]) expect(await rowCount(cms, `ec_${CONTENT[type]}`)).toBe(t.total);
      }
      expect(await rowCount(cms, '_cms_comments')).toBe(r.comments.imported);
    });
  }
});

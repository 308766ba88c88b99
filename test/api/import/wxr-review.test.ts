import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { importExport, postExport, wxrBytes } from '../../helpers/wxr.js';

/**
 * What the analysis promises is what execute does, on the theme unit test
 * export: the terms it counts are the terms created (a category listed both
 * as <wp:category> and as a <wp:term> of taxonomy category is one term), and a
 * collection that does not accept comments is reported with the comments it
 * would skip — prepare can turn its comments on, and then they are imported.
 */

const THEME = 'themeunittestdata.wordpress.xml';

/** Comments (not pingbacks or trackbacks) on the file's items of `type`, read with plain regular expressions. */
function realComments(type: string): number {
  let n = 0;
  for (const item of wxrBytes(THEME).toString('utf8').split('<item>').slice(1)) {
    if (!new RegExp(`<wp:post_type>(<!\\[CDATA\\[)?${type}(\\]\\]>)?</wp:post_type>`).test(item)) continue;
    for (const c of item.split('<wp:comment>').slice(1)) {
      const kind = /<wp:comment_type>(?:<!\[CDATA\[)?([^<\]]*)/.exec(c)?.[1] ?? '';
      if (kind === '' || kind === 'comment') n++;
    }
  }
  return n;
}

async function prepareAll(cms: TestCms, analysis: any, extra: Record<string, unknown> = {}) {
  const res = await call(cms, 'POST', '/import/blogplatform/prepare', {
    token: cms.adminToken,
    body: {
      postTypes: analysis.postTypes.map((pt: any) => ({
        name: pt.name,
        collection: pt.collection,
        fields: pt.fields,
        ...extra,
      })),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The theme data imported into posts and pages, where posts do not accept comments (turned off in its settings). */
async function withoutComments(cms: TestCms) {
  const file = wxrBytes(THEME);
  const first = await postExport(cms, '/import/blogplatform/analyze', cms.adminToken, file);
  await prepareAll(cms, first.body.data);
  const posts = await call(cms, 'GET', '/schema/collections/posts', { token: cms.adminToken });
  const supports = (posts.body.data.item?.supports ?? posts.body.data.supports) as string[];
  const off = await call(cms, 'PUT', '/schema/collections/posts', {
    token: cms.adminToken,
    body: { supports: supports.filter((s) => s !== 'comments') },
  });
  expect(off.status, JSON.stringify(off.body)).toBe(200);
  const analyzed = await postExport(cms, '/import/blogplatform/analyze', cms.adminToken, file);
  expect(analyzed.status).toBe(200);
  return { file, analysis: analyzed.body.data };
}

describeEachDialect('WordPress import review: analysis and execute agree', (dialect) => {
  it('counts each term once, as execute creates it', { timeout: 120_000 }, async () => {
    const cms = await testCms(dialect);
    const { analysis, result } = await importExport(cms, cms.adminToken, wxrBytes(THEME));
    expect(result.status).toBe(200);
    const r = result.body.data;
    const db = cms.ctx.db as any;
    for (const t of analysis.taxonomies) {
      const made = r.taxonomies[t.taxonomy];
      expect(made, t.taxonomy).toBeDefined();
      expect(made.failed, made.errors.join('; ')).toBe(0);
      expect(made.created + made.existing, `${t.source} → ${t.taxonomy}`).toBe(t.terms);
      const rows = await db
        .selectFrom('_cms_terms')
        .select((eb: any) => eb.fn.countAll().as('n'))
        .where('taxonomy', '=', t.taxonomy)
        .executeTakeFirstOrThrow();
      expect(Number(rows.n), t.taxonomy).toBe(t.terms);
    }
    const category = analysis.taxonomies.find((t: any) => t.source === 'category');
    expect(category.terms).toBe(68);
  });

  it('reports the comments a collection without comments would skip, and skips them with that reason', {
    timeout: 120_000,
  }, async () => {
    const cms = await testCms(dialect);
    const { file, analysis } = await withoutComments(cms);
    const expected = realComments('post');
    expect(expected).toBeGreaterThan(0);
    const post = analysis.postTypes.find((p: any) => p.name === 'post');
    expect(post.review.state).toBe('Ready');
    expect(post.review.warnings).toEqual([
      expect.objectContaining({
        code: 'comments_disabled',
        count: expected,
        message: expect.stringContaining('posts'),
      }),
    ]);
    expect(post.comments.skipped.comments_disabled).toBe(expected);
    // Pages accept comments: no warning.
    expect(analysis.postTypes.find((p: any) => p.name === 'page').review.warnings).toEqual([]);

    const run = await postExport(cms, '/import/blogplatform/execute', cms.adminToken, file, { config: '{}' });
    expect(run.status).toBe(200);
    const r = run.body.data;
    expect(r.comments.byReason.comments_disabled).toBe(expected);
    expect(r.comments.imported).toBe(realComments('page'));
    expect(Object.values(r.comments.byReason as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      r.comments.skipped,
    );
  });

  it('turns comments on when prepare is asked to, and execute then imports them', { timeout: 120_000 }, async () => {
    const cms = await testCms(dialect);
    const { file, analysis } = await withoutComments(cms);
    const prepared = await prepareAll(cms, analysis, { enableComments: true });
    expect(prepared.commentsEnabled).toEqual(['posts']);
    const again = await postExport(cms, '/import/blogplatform/analyze', cms.adminToken, file);
    expect(again.body.data.postTypes.find((p: any) => p.name === 'post').review.warnings).toEqual([]);

    const run = await postExport(cms, '/import/blogplatform/execute', cms.adminToken, file, { config: '{}' });
    expect(run.status).toBe(200);
    const r = run.body.data;
    expect(r.comments.byReason.comments_disabled ?? 0).toBe(0);
    expect(r.comments.imported).toBe(realComments('post') + realComments('page'));
    const posts = await call(cms, 'GET', '/schema/collections/posts', { token: cms.adminToken });
    expect(JSON.stringify(posts.body.data)).toContain('"comments"');
  });
});

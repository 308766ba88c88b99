import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { startStandin } from '../../helpers/exporter-standin.js';

/**
 * The exporter plugin's answers are text from a file like an export's: a NUL
 * or a lone surrogate (JSON escapes `\u0000`, `\ud800`) is replaced by U+FFFD
 * where the client reads it, reported as the `text_replaced` warning, and the
 * import is the same on both engines.
 */

const NUL = '\u0000';
const LONE = '\ud800';
const FFFD = '\uFFFD';

const DATA = {
  summary: {
    site: { title: 'Stand-in', url: 'http://standin', description: '', language: 'en' },
    authors: [{ id: '1', login: 'ed', displayName: 'Ed Itor' }],
    terms: [{ id: '5', taxonomy: 'category', slug: `ne${NUL}ws`, name: `Ne${LONE}ws` }],
    postTypes: [{ name: 'post', count: 1, byStatus: { publish: 1 }, excerpt: false, featuredImage: false }],
    comments: 1,
    menus: [],
  },
  items: [
    {
      postId: '1',
      postType: 'post',
      status: 'publish',
      title: `Ti${NUL}tle`,
      postName: 'hello',
      creator: 'ed',
      content: '<p>Body</p>',
      terms: [{ domain: 'category', slug: `ne${NUL}ws`, name: 'News' }],
      meta: [],
    },
  ],
  comments: [{ id: '100', postId: '1', author: `A${LONE}`, content: `To${NUL}p`, approved: '1', parent: '0' }],
  menuItems: [],
};

describeEachDialect('WordPress import from a live site: text no database stores', (dialect) => {
  it('replaces NUL and lone surrogates, reports them, and imports the same on both engines', async () => {
    const cms = await testCms(dialect, { config: { importAllowPrivateHosts: true } });
    const site = await startStandin(DATA);
    const analyzed = await call(cms, 'POST', '/import/blogplatform-plugin/analyze', {
      token: cms.adminToken,
      body: { url: site.url, token: site.token },
    });
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(200);
    const analysis = (analyzed.body as any).analysis;
    expect(analysis.warnings).toEqual([
      expect.objectContaining({
        code: 'text_replaced',
        count: 2,
        first: { record: 'term', recordNumber: 1, element: 'slug' },
      }),
    ]);
    await call(cms, 'POST', '/import/blogplatform/prepare', {
      token: cms.adminToken,
      body: {
        postTypes: analysis.postTypes.map((p: any) => ({ name: p.name, collection: p.collection, fields: p.fields })),
      },
    });
    const config = { postTypeMappings: {}, skipExisting: false };
    const content = await call(cms, 'POST', '/import/blogplatform-plugin/execute', {
      token: cms.adminToken,
      body: { url: site.url, token: site.token, config, phase: 'content' },
    });
    expect(content.status, JSON.stringify(content.body)).toBe(200);
    const step = content.body.data as any;
    expect(step.result.failed, JSON.stringify(step.result.errors)).toBe(0);
    expect(step.result.warnings[0]).toMatchObject({ code: 'text_replaced', count: 4 });
    const comments = await call(cms, 'POST', '/import/blogplatform-plugin/execute', {
      token: cms.adminToken,
      body: { url: site.url, token: site.token, config, phase: 'comments', idMap: step.chunk.idMap },
    });
    expect(comments.status, JSON.stringify(comments.body)).toBe(200);
    expect((comments.body.data as any).result.comments.imported).toBe(1);

    const db = cms.ctx.db as any;
    expect((await db.selectFrom('ec_posts').select('title').executeTakeFirstOrThrow()).title).toBe(`Ti${FFFD}tle`);
    expect(await db.selectFrom('_cms_terms').select(['slug', 'label']).execute()).toEqual([
      { slug: `ne${FFFD}ws`, label: `Ne${FFFD}ws` },
    ]);
    expect(await db.selectFrom('_cms_comments').select(['body', 'author_name']).execute()).toEqual([
      { body: `To${FFFD}p`, author_name: `A${FFFD}` },
    ]);
  });
});

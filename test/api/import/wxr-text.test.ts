import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { png } from '../../helpers/media.js';
import { importExport, postExport } from '../../helpers/wxr.js';

/**
 * Text no database stores (U+0000) in a WordPress export: real exports carry
 * NUL bytes, so the file is not refused — the reader replaces each by U+FFFD,
 * counts it and the analysis reports where the first was; both engines then
 * analyse and import the same file identically. Multipart text parts follow
 * the JSON body rule instead: a NUL is a 400 naming the part.
 */

const NUL = '\u0000';
const FFFD = '\uFFFD';

const EXPORT = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Nul</title><link>https://nul.example.test</link>
<wp:category><wp:term_id>5</wp:term_id><wp:category_nicename><![CDATA[bad${NUL}cat]]></wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[Bad${NUL}Cat]]></wp:cat_name></wp:category>
<item>
  <title><![CDATA[Ti${NUL}tle]]></title>
  <dc:creator><![CDATA[alice]]></dc:creator>
  <content:encoded><![CDATA[<p>Body</p>]]></content:encoded>
  <wp:post_id>7</wp:post_id>
  <wp:post_name><![CDATA[nul-post]]></wp:post_name>
  <wp:status><![CDATA[publish]]></wp:status>
  <wp:post_type><![CDATA[post]]></wp:post_type>
  <category domain="category" nicename="bad${NUL}cat"><![CDATA[Bad${NUL}Cat]]></category>
  <wp:postmeta><wp:meta_key><![CDATA[rat${NUL}ing]]></wp:meta_key><wp:meta_value><![CDATA[O:3:"Foo":1:{s:6:"${NUL}*${NUL}bar";i:1;}]]></wp:meta_value></wp:postmeta>
  <wp:comment>
    <wp:comment_id>1</wp:comment_id><wp:comment_author><![CDATA[Rea${NUL}der]]></wp:comment_author>
    <wp:comment_date_gmt>2020-05-07 01:02:03</wp:comment_date_gmt>
    <wp:comment_content><![CDATA[Nice${NUL} post]]></wp:comment_content>
    <wp:comment_approved>1</wp:comment_approved><wp:comment_type></wp:comment_type><wp:comment_parent>0</wp:comment_parent>
  </wp:comment>
</item>
</channel></rss>
`;

describeEachDialect('WordPress import: text no database stores', (dialect) => {
  it('replaces NUL by U+FFFD, reports it, and imports the same on both engines', async () => {
    const cms = await testCms(dialect);
    const { analysis, result } = await importExport(cms, cms.adminToken, Buffer.from(EXPORT));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(JSON.stringify(analysis)).not.toContain('\\u0000');

    // The warning: how many, and the first place (the declared category, before any item).
    expect(analysis.warnings).toEqual([
      expect.objectContaining({
        code: 'text_replaced',
        count: 10,
        first: { record: 'wp:category', recordNumber: 1, element: 'wp:category_nicename', sourceId: `bad${FFFD}cat` },
      }),
    ]);
    expect(analysis.warnings[0].message).toContain('U+FFFD');
    // Suggested field labels are clean.
    expect(analysis.customFields.map((f: any) => [f.key, f.field.label, f.field.slug])).toEqual([
      [`rat${FFFD}ing`, `rat${FFFD}ing`, 'rat_ing'],
    ]);

    const r = result.body.data;
    expect(r.failed, JSON.stringify(r.errors)).toBe(0);
    expect(r.imported).toBe(1);
    expect(r.warnings.map((w: any) => [w.code, w.count])).toEqual([['text_replaced', 10]]);
    expect(r.taxonomies.category).toMatchObject({ created: 1, failed: 0, assignments: 1 });
    expect(r.comments).toMatchObject({ imported: 1, skipped: 0, failed: 0 });

    const db = cms.ctx.db as any;
    const post = await db.selectFrom('ec_posts').selectAll().executeTakeFirstOrThrow();
    expect(post.title).toBe(`Ti${FFFD}tle`);
    const term = await db.selectFrom('_cms_terms').select(['slug', 'label']).executeTakeFirstOrThrow();
    expect(term).toEqual({ slug: `bad${FFFD}cat`, label: `Bad${FFFD}Cat` });
    const comment = await db.selectFrom('_cms_comments').select(['body', 'author_name']).executeTakeFirstOrThrow();
    expect(comment).toEqual({ body: `Nice${FFFD} post`, author_name: `Rea${FFFD}der` });
    // Read back through the API like any entry.
    const got = await call(cms, 'GET', `/content/posts/${post.id}`, { token: cms.adminToken });
    expect(got.body.data.item.data.title).toBe(`Ti${FFFD}tle`);
  });

  it('refuses a NUL in a multipart text part with a 400 naming the part', async () => {
    const cms = await testCms(dialect);
    const file = Buffer.from(EXPORT);
    const raw = await postExport(cms, '/import/blogplatform/execute', cms.adminToken, file, {
      config: `{"skipExisting":true}${NUL}`,
    });
    expect(raw.status).toBe(400);
    expect(raw.body.error.code).toBe('VALIDATION_ERROR');
    expect(raw.body.error.details.issues).toEqual([
      expect.objectContaining({ path: ['config'], code: 'invalid_text' }),
    ]);

    // An escape inside the config's JSON decodes to NUL: the JSON body rule, under `config`.
    const escaped = await postExport(cms, '/import/blogplatform/execute', cms.adminToken, file, {
      config: '{"authorMappings":{"al\\u0000ice":null}}',
    });
    expect(escaped.status).toBe(400);
    expect(escaped.body.error.details.issues).toEqual([
      expect.objectContaining({ path: ['config', 'authorMappings', `al${NUL}ice`], code: 'invalid_text' }),
    ]);

    // Every multipart route gets the same check: a media upload's caption.
    const form = new FormData();
    form.append('caption', `A${NUL}B`);
    form.append('file', new Blob([await png()]), 'red.png');
    const res = await cms.app.request('/_cms/api/media', {
      method: 'POST',
      headers: { authorization: `Bearer ${cms.adminToken}` },
      body: form,
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(400);
    expect(body.error.details.issues).toEqual([expect.objectContaining({ path: ['caption'], code: 'invalid_text' })]);
  });
});

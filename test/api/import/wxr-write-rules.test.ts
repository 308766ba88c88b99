import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { importExport } from '../../helpers/wxr.js';

/**
 * An export is untrusted input like a request: the rows the import writes
 * pass the rules the REST write path applies to their kind. Comments follow
 * the submission rules (text escaped, an unsafe author link dropped and
 * counted, a body longer than a submission may be skipped with its reason),
 * terms the term rules (a description longer than the limit fails the term,
 * the entry is still imported), menu items the menu rules (an unsafe URL fails
 * that item alone, the menu and its other items are imported), and links in
 * content the url field rules.
 */

const comment = (id: string, author: string, url: string, text: string) => `<wp:comment>
  <wp:comment_id>${id}</wp:comment_id><wp:comment_author><![CDATA[${author}]]></wp:comment_author>
  <wp:comment_author_email>Reader${id}@Example.test</wp:comment_author_email>
  <wp:comment_author_url>${url}</wp:comment_author_url>
  <wp:comment_date_gmt>2020-05-07 01:02:03</wp:comment_date_gmt>
  <wp:comment_content><![CDATA[${text}]]></wp:comment_content>
  <wp:comment_approved>1</wp:comment_approved><wp:comment_type></wp:comment_type><wp:comment_parent>0</wp:comment_parent>
</wp:comment>`;

const meta = (key: string, value: string) =>
  `<wp:postmeta><wp:meta_key>${key}</wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`;

const navItem = (id: string, order: number, title: string, url: string) => `<item>
  <title><![CDATA[${title}]]></title><wp:post_id>${id}</wp:post_id><wp:menu_order>${order}</wp:menu_order>
  <wp:status>publish</wp:status><wp:post_type>nav_menu_item</wp:post_type>
  <category domain="nav_menu" nicename="main"><![CDATA[Main]]></category>
  ${meta('_menu_item_type', 'custom')}${meta('_menu_item_url', url)}${meta('_menu_item_menu_item_parent', '0')}
</item>`;

const EXPORT = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Rules</title><link>https://rules.example.test</link>
<wp:category><wp:term_id>2</wp:term_id><wp:category_nicename>wordy</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[Wordy]]></wp:cat_name><wp:category_description><![CDATA[${'long '.repeat(500)}]]></wp:category_description></wp:category>
<wp:category><wp:term_id>3</wp:term_id><wp:category_nicename>plain</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[   ]]></wp:cat_name></wp:category>
<wp:term><wp:term_id>9</wp:term_id><wp:term_taxonomy>nav_menu</wp:term_taxonomy><wp:term_slug>main</wp:term_slug><wp:term_name><![CDATA[Main]]></wp:term_name></wp:term>
<item>
  <title><![CDATA[Hello]]></title><dc:creator><![CDATA[alice]]></dc:creator>
  <content:encoded><![CDATA[<p><a href="javascript:alert(1)">click</a> and <a href="https://ok.example.test/">ok</a></p>]]></content:encoded>
  <wp:post_id>10</wp:post_id><wp:post_name><![CDATA[hello]]></wp:post_name>
  <wp:status><![CDATA[publish]]></wp:status><wp:post_type><![CDATA[post]]></wp:post_type>
  <category domain="category" nicename="wordy"><![CDATA[Wordy]]></category>
  <category domain="category" nicename="plain"><![CDATA[   ]]></category>
  ${comment('1', '<script>alert(1)</script>', 'javascript:alert(1)', 'Hi <b>there</b>')}
  ${comment('2', 'Long', 'https://reader.example.test/', 'x'.repeat(6000))}
</item>
${navItem('20', 1, 'Bad', 'javascript:alert(1)')}
${navItem('21', 2, 'Good', 'https://good.example.test/')}
</channel></rss>
`;

describeEachDialect('WordPress import: rows pass the write path rules', (dialect) => {
  it('comments, terms, menu items and content links follow the rules of their kind', async () => {
    const cms = await testCms(dialect);
    const { result } = await importExport(cms, cms.adminToken, Buffer.from(EXPORT));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const r = result.body.data;
    const db = cms.ctx.db as any;

    // Comments: the submission rules.
    expect(r.comments).toMatchObject({
      imported: 1,
      skipped: 1,
      byReason: { body_too_big: 1 },
      changed: { author_url_dropped: 1 },
    });
    const rows = await db.selectFrom('_cms_comments').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].author_name).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(rows[0].author_url).toBeNull();
    expect(rows[0].body).toBe('Hi there');
    expect(rows[0].author_email).toBe('reader1@example.test');

    // Terms: the term rules. The long description fails that term (reported); the blank name falls back to the slug.
    expect(r.taxonomies.category.created).toBe(1);
    expect(r.taxonomies.category.failed).toBe(1);
    expect(r.taxonomies.category.errors.join(' ')).toContain('wordy');
    expect(r.taxonomies.category.errors.join(' ')).toContain('description');
    const terms = await db.selectFrom('_cms_terms').select(['slug', 'label']).execute();
    expect(terms).toEqual([{ slug: 'plain', label: 'plain' }]);

    // The entry is imported, filed under the term that exists; the unsafe link is not kept.
    expect(r.byCollection.posts.imported).toBe(1);
    const post = await db.selectFrom('ec_posts').selectAll().executeTakeFirstOrThrow();
    const got = await call(cms, 'GET', `/content/posts/${post.id}`, { token: cms.adminToken });
    const body = JSON.stringify(got.body.data.item.data.body);
    expect(body).not.toContain('javascript:');
    expect(body).toContain('https://ok.example.test/');

    // Menus: the unsafe item fails alone; the menu and the other item are imported.
    expect(r.menus.created).toBe(1);
    expect(r.menus.items).toEqual({ imported: 1, skipped: 0, failed: 1 });
    const bad = r.errors.find((e: any) => e.sourceId === '20');
    expect(bad).toMatchObject({ code: 'INVALID_MENU_ITEM', postType: 'nav_menu_item' });
    expect(bad.message).toContain('url');
    const items = await db.selectFrom('_cms_menu_items').select(['url', 'label']).execute();
    expect(items).toEqual([{ url: 'https://good.example.test/', label: 'Good' }]);
  });
});

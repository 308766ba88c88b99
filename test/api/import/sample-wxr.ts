/** A small export built for the rules the real files do not all exercise. */
function item(fields: Record<string, string>, extra = ''): string {
  const f: Record<string, string> = {
    post_type: 'post',
    status: 'publish',
    post_parent: '0',
    menu_order: '0',
    ...fields,
  };
  return `<item>
  <title><![CDATA[${f.title ?? ''}]]></title>
  <dc:creator><![CDATA[${f.creator ?? 'alice'}]]></dc:creator>
  <content:encoded><![CDATA[${f.content ?? '<p>Hello <strong>world</strong></p>'}]]></content:encoded>
  <excerpt:encoded><![CDATA[${f.excerpt ?? ''}]]></excerpt:encoded>
  <wp:post_id>${f.id}</wp:post_id>
  <wp:post_date_gmt><![CDATA[${f.date ?? '2020-05-06 07:08:09'}]]></wp:post_date_gmt>
  <wp:post_name><![CDATA[${f.slug ?? ''}]]></wp:post_name>
  <wp:status><![CDATA[${f.status}]]></wp:status>
  <wp:post_parent>${f.post_parent}</wp:post_parent>
  <wp:menu_order>${f.menu_order}</wp:menu_order>
  <wp:post_type><![CDATA[${f.post_type}]]></wp:post_type>
  ${extra}
</item>`;
}

const comment = (id: string, parent: string, approved: string, text: string) => `<wp:comment>
  <wp:comment_id>${id}</wp:comment_id><wp:comment_author><![CDATA[Reader ${id}]]></wp:comment_author>
  <wp:comment_author_email>r${id}@example.test</wp:comment_author_email>
  <wp:comment_author_url>javascript:alert(1)</wp:comment_author_url>
  <wp:comment_date_gmt>2020-05-07 01:02:03</wp:comment_date_gmt>
  <wp:comment_content><![CDATA[${text}]]></wp:comment_content>
  <wp:comment_approved>${approved}</wp:comment_approved><wp:comment_type></wp:comment_type>
  <wp:comment_parent>${parent}</wp:comment_parent><wp:comment_user_id>0</wp:comment_user_id>
</wp:comment>`;

const meta = (key: string, value: string) =>
  `<wp:postmeta><wp:meta_key>${key}</wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`;

export const SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Sample &amp; Co</title><link>https://old.example.test</link><description>d</description><language>en</language>
<wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_id>1</wp:author_id><wp:author_login>alice</wp:author_login><wp:author_display_name><![CDATA[Alice A.]]></wp:author_display_name></wp:author>
<wp:author><wp:author_id>2</wp:author_id><wp:author_login>bob</wp:author_login><wp:author_display_name><![CDATA[Bob B.]]></wp:author_display_name></wp:author>
<wp:category><wp:term_id>3</wp:term_id><wp:category_nicename>child</wp:category_nicename><wp:category_parent>parent</wp:category_parent><wp:cat_name><![CDATA[Child]]></wp:cat_name></wp:category>
<wp:category><wp:term_id>2</wp:term_id><wp:category_nicename>parent</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[Parent]]></wp:cat_name></wp:category>
<wp:tag><wp:term_id>4</wp:term_id><wp:tag_slug>news</wp:tag_slug><wp:tag_name><![CDATA[News]]></wp:tag_name></wp:tag>
<wp:term><wp:term_id>9</wp:term_id><wp:term_taxonomy>nav_menu</wp:term_taxonomy><wp:term_slug>main</wp:term_slug><wp:term_name><![CDATA[Main]]></wp:term_name></wp:term>
${item(
  { id: '10', title: 'Published post', slug: 'caf%c3%a9-news', creator: 'alice', excerpt: 'Short' },
  `<category domain="category" nicename="child"><![CDATA[Child]]></category>
   <category domain="post_tag" nicename="news"><![CDATA[News]]></category>
   <category domain="post_tag" nicename="undeclared"><![CDATA[Undeclared]]></category>
   ${meta('rating', '4')}${meta('_edit_lock', 'x')}
   ${comment('100', '0', '1', '<p>First <b>comment</b></p>')}
   ${comment('101', '100', '0', 'A reply')}
   ${comment('102', '101', 'spam', 'Reply to the reply')}`,
)}
${item({ id: '11', title: 'Draft post', slug: '', status: 'draft', creator: 'bob' })}
${item({ id: '12', title: 'Scheduled', slug: 'scheduled', status: 'future' })}
${item({ id: '13', title: 'Private', slug: 'private', status: 'private' })}
${item({ id: '20', title: 'About', slug: 'about', post_type: 'page' })}
${item({ id: '30', title: 'Callout', slug: 'callout', post_type: 'wp_block', content: '<!-- wp:paragraph --><p>Reusable</p><!-- /wp:paragraph -->' })}
${item({ id: '40', title: 'Widget', slug: 'widget', post_type: 'product' })}
${item({ id: '50', title: 'Changeset', slug: 'cs', post_type: 'customize_changeset' })}
${item({ id: '60', title: '', slug: 'm1', post_type: 'nav_menu_item', menu_order: '1' }, `<category domain="nav_menu" nicename="main"><![CDATA[Main]]></category>${meta('_menu_item_type', 'post_type')}${meta('_menu_item_object', 'page')}${meta('_menu_item_object_id', '20')}${meta('_menu_item_menu_item_parent', '0')}`)}
${item({ id: '61', title: 'Docs', slug: 'm2', post_type: 'nav_menu_item', menu_order: '2' }, `<category domain="nav_menu" nicename="main"><![CDATA[Main]]></category>${meta('_menu_item_type', 'custom')}${meta('_menu_item_url', 'https://docs.example.test/')}${meta('_menu_item_menu_item_parent', '60')}`)}
${item({ id: '62', title: 'News', slug: 'm3', post_type: 'nav_menu_item', menu_order: '3' }, `<category domain="nav_menu" nicename="main"><![CDATA[Main]]></category>${meta('_menu_item_type', 'taxonomy')}${meta('_menu_item_object', 'category')}${meta('_menu_item_object_id', '2')}${meta('_menu_item_menu_item_parent', '0')}`)}
</channel>
</rss>
`;

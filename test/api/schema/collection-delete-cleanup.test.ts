/**
 * Deleting a collection removes, in its own transaction, every row other
 * domains keep for it: term assignments and counts (and its place in
 * taxonomies), menu items pointing at its entries, comments, SEO objects and
 * the search index. A collection created afterwards with the same slug starts
 * clean.
 */
import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { submitComment } from '../../helpers/public.js';
import { ok, taxonomy, term } from '../structure/helpers.js';

async function collection(cms: TestCms, slug: string) {
  await ok(cms, 'POST', '/schema/collections', {
    slug,
    label: slug,
    supports: ['drafts', 'search', 'seo', 'comments'],
    fields: [{ slug: 'title', label: 'Title', type: 'string', required: true, searchable: true }],
  });
}

async function publishedEntry(cms: TestCms, slug: string, title: string) {
  const entry = (await createEntry(cms, { data: { title } }, cms.adminToken, slug)).item;
  await publish(cms, entry.id, cms.adminToken, slug);
  return entry;
}

const count = async (cms: TestCms, table: string, column: string, value: string) =>
  Number(
    (
      await cms.ctx.db
        .selectFrom(table as '_cms_seo')
        .select((eb) => eb.fn.countAll().as('n'))
        .where(column as 'collection', '=', value)
        .executeTakeFirstOrThrow()
    ).n,
  );

describeEachDialect('deleting a collection cleans up after it', (dialect) => {
  it('removes its term assignments, menu items, comments, SEO rows and search index, and nothing else', async () => {
    const cms = await testCms(dialect, { config: { trustedProxyHeaders: ['x-forwarded-for'] } });
    await collection(cms, 'posts');
    await collection(cms, 'pages');
    const post = await publishedEntry(cms, 'posts', 'Doomed post');
    const page = await publishedEntry(cms, 'pages', 'Kept page');
    await taxonomy(cms, { name: 'tags', label: 'Tags', collections: ['posts', 'pages'] });
    const news = await term(cms, 'tags', { label: 'News' });
    for (const [c, e] of [
      ['posts', post],
      ['pages', page],
    ] as const) {
      await ok(cms, 'POST', `/content/${c}/${e.id}/terms/tags`, { terms: [news.id] });
      await ok(cms, 'PUT', `/seo/${c}/${e.id}`, { title: `SEO ${c}` });
      const sent = await submitComment(
        cms,
        e.id,
        { authorName: 'V', authorEmail: 'v@example.test', body: 'Hi' },
        undefined,
        c,
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }
    await ok(cms, 'POST', '/menus', { name: 'main', label: 'Main' });
    const postItem = await ok(cms, 'POST', '/menus/main/items', {
      kind: 'content',
      collection: 'posts',
      entryId: post.id,
    });
    await ok(cms, 'POST', '/menus/main/items', { kind: 'url', url: '/under', label: 'Under', parentId: postItem.id });
    await ok(cms, 'POST', '/menus/main/items', { kind: 'content', collection: 'pages', entryId: page.id });
    expect((await ok(cms, 'GET', '/taxonomies/tags/terms/news')).count).toBe(2);
    const postsId = (await cms.services.schema.snapshot()).collections.get('posts')!.id;

    await ok(cms, 'DELETE', '/schema/collections/posts');

    expect(await count(cms, '_cms_content_terms', 'collection_id', postsId)).toBe(0);
    expect(await count(cms, '_cms_term_counts', 'collection_id', postsId)).toBe(0);
    expect(await count(cms, '_cms_term_counted', 'collection_id', postsId)).toBe(0);
    expect(await count(cms, '_cms_seo', 'collection', 'posts')).toBe(0);
    expect(await count(cms, '_cms_comments', 'collection', 'posts')).toBe(0);
    expect(await count(cms, '_cms_search_collections', 'collection_id', postsId)).toBe(0);
    expect((await ok(cms, 'GET', '/taxonomies/tags')).collections).toEqual(['pages']);
    expect((await ok(cms, 'GET', '/taxonomies/tags/terms/news')).count).toBe(1);
    // The item's child moves up into its place; the other collection's item stays.
    const menu = await ok(cms, 'GET', '/menus/main');
    expect(menu.items.map((i: any) => [i.label, i.depth])).toEqual([
      ['Under', 0],
      ['Kept page', 0],
    ]);
    // Everything of the other collection is untouched.
    expect((await ok(cms, 'GET', `/content/pages/${page.id}/terms/tags`)).items.map((t: any) => t.slug)).toEqual([
      'news',
    ]);
    expect((await ok(cms, 'GET', `/seo/pages/${page.id}`)).title).toBe('SEO pages');
    expect(await count(cms, '_cms_comments', 'collection', 'pages')).toBe(1);
    expect((await ok(cms, 'GET', '/search?q=kept')).items.map((h: any) => h.id)).toEqual([page.id]);

    // A new collection of the same slug inherits nothing.
    await collection(cms, 'posts');
    const fresh = await publishedEntry(cms, 'posts', 'Fresh post');
    await ok(cms, 'PUT', '/taxonomies/tags', { collections: ['pages', 'posts'] });
    expect((await ok(cms, 'GET', `/content/posts/${fresh.id}/terms/tags`)).items).toEqual([]);
    const comments = await call(cms, 'GET', `/comments/posts/${fresh.id}`, { token: null });
    expect(comments.body.data.items).toEqual([]);
  });
});

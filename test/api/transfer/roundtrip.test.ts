/**
 * A whole site moved through a package: built on one database, exported,
 * imported into an empty site on the other database, and read back through
 * the REST API as a client would. Everything a reader or editor sees must
 * be the same (IDs included); what the site derives (search, term counts,
 * media usage) must work on the new site.
 */
import { describe, expect, it } from 'vitest';
import type { DialectName } from '../../../src/db/dialect.js';
import { call, type TestCms } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { postgresAvailable } from '../../helpers/db.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';
import { submitComment } from '../../helpers/public.js';
import { fetchBytes, transferSite } from '../../helpers/transfer.js';
import { ok, taxonomy, term } from '../structure/helpers.js';

async function richSite(cms: TestCms) {
  await ok(cms, 'PUT', '/settings', { title: 'Old Site', tagline: 'Moving house' });
  const image = await uploaded(cms, await png(20, 10));
  await ok(cms, 'POST', '/schema/collections', {
    slug: 'pages',
    label: 'Pages',
    fields: [{ slug: 'title', label: 'Title', type: 'string', required: true }],
  });
  await ok(cms, 'POST', '/schema/collections', {
    slug: 'posts',
    label: 'Posts',
    supports: ['drafts', 'revisions', 'search', 'comments', 'seo'],
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true, indexed: true },
      { slug: 'body', label: 'Body', type: 'portableText', searchable: true },
      { slug: 'tags', label: 'Tags', type: 'multiSelect', options: { choices: ['a', 'b'] } },
      { slug: 'featured', label: 'Featured', type: 'boolean' },
      { slug: 'meta', label: 'Meta', type: 'json' },
      { slug: 'cover', label: 'Cover', type: 'image' },
      { slug: 'rating', label: 'Rating', type: 'number' },
      { slug: 'parent', label: 'Parent page', type: 'reference', validation: { targetCollection: 'pages' } },
    ],
  });
  const page = (await createEntry(cms, { data: { title: 'About' } }, cms.adminToken, 'pages')).item;
  await publish(cms, page.id, cms.adminToken, 'pages');
  const block = (text: string) => [
    {
      _type: 'block',
      _key: 'k1',
      style: 'normal',
      children: [{ _type: 'span', _key: 's1', text, marks: [] }],
      markDefs: [],
    },
  ];
  const live = (
    await createEntry(cms, {
      data: {
        title: 'Hello world',
        body: block('Headless content travels well'),
        tags: ['a', 'b'],
        featured: true,
        meta: { nested: { n: 1 } },
        cover: { id: image.id },
        rating: 4.5,
      },
      references: { parent: [page.id] },
    })
  ).item;
  await publish(cms, live.id);
  // A pending draft over the live values.
  const current = await call(cms, 'GET', `/content/posts/${live.id}`, { token: cms.adminToken });
  await ok(cms, 'PUT', `/content/posts/${live.id}`, {
    data: { title: 'Hello world, edited' },
    _rev: current.body.data._rev,
  });
  const draft = (await createEntry(cms, { data: { title: 'Only a draft', featured: false } })).item;
  const trashed = (await createEntry(cms, { data: { title: 'Gone soon' } })).item;
  await ok(cms, 'DELETE', `/content/posts/${trashed.id}`);

  await taxonomy(cms, { name: 'topics', label: 'Topics', collections: ['posts'] });
  const news = await term(cms, 'topics', { label: 'News' });
  await ok(cms, 'POST', `/content/posts/${live.id}/terms/topics`, { terms: [news.id] });
  await ok(cms, 'POST', '/menus', { name: 'main', label: 'Main' });
  await ok(cms, 'POST', '/menus/main/items', { kind: 'content', collection: 'posts', entryId: live.id });
  await ok(cms, 'POST', '/menus/main/items', { kind: 'url', url: '/contact', label: 'Contact' });
  await ok(cms, 'POST', '/redirects', { source: '/old-hello', target: '/posts/hello-world' });
  await ok(cms, 'PUT', `/seo/posts/${live.id}`, { title: 'SEO hello' });
  const sent = await submitComment(cms, live.id, {
    authorName: 'Visitor',
    authorEmail: 'v@example.test',
    body: 'Nice move',
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return { image, page, live, draft, trashed };
}

/** What a client reads of the site, IDs and all (times too: they travel unchanged). */
async function readSite(cms: TestCms) {
  const get = (path: string) => ok(cms, 'GET', path);
  const posts = await get('/content/posts?limit=100');
  const pages = await get('/content/pages?limit=100');
  const trash = await get('/content/posts/trash');
  const full = [];
  for (const item of posts.items) full.push(await get(`/content/posts/${item.id}`));
  return {
    settings: await get('/settings'),
    posts: posts.items,
    pages: pages.items,
    trash: trash.items.map((i: any) => i.id),
    full: full.map((f: any) => ({ item: f.item, references: f.references })),
    taxonomy: await get('/taxonomies/topics'),
    terms: (await get('/taxonomies/topics/terms')).items,
    menu: await get('/menus/main'),
    redirects: (await get('/redirects')).items.map((r: any) => ({
      source: r.source,
      target: r.target,
      statusCode: r.statusCode,
    })),
    media: (await get('/media')).items.map((m: any) => ({
      id: m.id,
      filename: m.filename,
      size: m.size,
      width: m.width,
    })),
    comments: (await get('/admin/comments')).items.map((c: any) => ({ id: c.id, body: c.body, status: c.status })),
  };
}

const pairs: Array<[DialectName, DialectName]> = [
  ['sqlite', 'postgres'],
  ['postgres', 'sqlite'],
];

describe('site transfer round trip', () => {
  for (const [from, to] of pairs) {
    it.skipIf(!postgresAvailable)(`moves a whole site from ${from} to ${to}`, async () => {
      const source = await mediaCms(from);
      const built = await richSite(source);
      const before = await readSite(source);

      const target = await mediaCms(to);
      await ok(target, 'PUT', '/settings', { title: 'New Site' });
      const { plan, receipt } = await transferSite(source, target);
      // The administrator of both sites shares an address: mapped, not created.
      expect(plan.principals.items).toEqual([
        expect.objectContaining({ id: source.adminId, suggestedUserId: target.adminId, mappedUserId: target.adminId }),
      ]);
      expect(plan.decisions.title).toBe('package');
      expect(receipt.records.entries).toBe(4);
      expect(receipt.principals).toEqual({ mapped: 1, created: 0 });
      expect(receipt.receiptDigest).toMatch(/^sha256:/);

      const after = await readSite(target);
      // Authorship moves to the target's administrator; everything else is the same.
      const author = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll(source.adminId, target.adminId));
      expect(after).toEqual(author(before));

      // Derived data works on the new site: search, term counts, media usage, the media bytes.
      const found = await ok(target, 'GET', '/search?q=headless');
      expect(found.items.map((h: any) => h.id)).toEqual([built.live.id]);
      expect((await ok(target, 'GET', '/taxonomies/topics/terms/news')).count).toBe(1);
      const usage = await ok(target, 'GET', `/media/${built.image.id}?includeUsage=1`);
      expect(usage.item.usage).toEqual({ count: 1, coverage: 'complete' });
      const sourceBytes = await fetchBytes(source, `/media/file/${built.image.id}`, source.adminToken);
      const targetBytes = await fetchBytes(target, `/media/file/${built.image.id}`, target.adminToken);
      expect(targetBytes.status).toBe(200);
      expect(targetBytes.bytes.equals(sourceBytes.bytes)).toBe(true);
      // Writes are open again and the imported schema takes them.
      await createEntry(target, { data: { title: 'Written after the move' } });
    });
  }
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startBlog } from '../../examples/blog/server.js';
import { ROLES } from '../../src/auth/roles.js';
import { type CmsClientError, createClient } from '../../src/client/index.js';
import { listen } from '../../src/http/server.js';
import { callOk, type TestCms, testCms } from '../helpers/cms.js';
import { createEntry, publish } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { jpeg, uploaded } from '../helpers/media.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

interface Running {
  cms: TestCms;
  url: string;
}

/** A real service listening on loopback (publicUrl = its address) with a routable `posts` collection. */
async function site(dialect: 'sqlite' | 'postgres'): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-blog-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const cms = await testCms(dialect, { config: { dataDir, publicUrl: url } });
  const server = await listen(cms, port, '127.0.0.1');
  // Registered after testCms's own clean-up, so this runs first: stop accepting before the database goes.
  cleanups.push(async () => {
    (server.server as unknown as { closeAllConnections(): void }).closeAllConnections();
    await new Promise<void>((done) => server.server.close(() => done()));
    rmSync(dataDir, { recursive: true, force: true });
  });
  await callOk(cms, cms.adminToken, 'POST', '/schema/collections', {
    slug: 'posts',
    label: 'Posts',
    urlPattern: '/posts/{slug}',
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true },
      { slug: 'views', label: 'Views', type: 'integer', indexed: true },
      { slug: 'cover', label: 'Cover', type: 'image' },
      { slug: 'body', label: 'Body', type: 'portableText' },
    ],
  });
  await callOk(cms, cms.adminToken, 'PUT', '/settings', { siteUrl: 'http://blog.example' });
  return { cms, url };
}

const block = (text: string, style = 'normal', marks: string[] = []) => ({
  _type: 'block',
  _key: `k${text.length}${style}`,
  style,
  markDefs: [{ _key: 'l1', _type: 'link', href: 'https://example.org/' }],
  children: [{ _type: 'span', _key: 's1', text, marks }],
});

describeEachDialect('typed client against a running server', (dialect) => {
  it('reads entries by ID and slug, pages with cursors, filters, menus, terms, settings, search, previews and errors', async () => {
    const { cms, url } = await site(dialect);
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const { item } = await createEntry(cms, { slug: `post-${i}`, data: { title: `Post ${i}`, views: i * 10 } });
      await publish(cms, item.id);
      ids.push(item.id);
    }
    const { item: draft } = await createEntry(cms, { slug: 'secret', data: { title: 'Secret draft' } });

    const reader = await cms.userToken(ROLES.SUBSCRIBER, ['content:read']);
    const client = createClient<{ posts: { title: string; views?: number } }>({ baseUrl: url, token: reader.token });
    const anonymous = createClient({ baseUrl: url });
    expect(await anonymous.get('posts', 'post-1').catch((e: CmsClientError) => e)).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    });
    const one = await client.get('posts', 'post-3');
    expect(one).toMatchObject({
      id: ids[2],
      slug: 'post-3',
      status: 'published',
      data: { title: 'Post 3', views: 30 },
    });
    expect((await client.get('posts', ids[0])).data.title).toBe('Post 1');

    // Cursor pages of two, and the iterator over them.
    const first = await client.list('posts', { limit: 2, orderBy: 'views', order: 'asc' });
    expect(first.items.map((p) => p.data.views)).toEqual([10, 20]);
    expect(first.nextCursor).toBeTruthy();
    const second = await client.list('posts', { limit: 2, orderBy: 'views', order: 'asc', cursor: first.nextCursor });
    expect(second.items.map((p) => p.data.views)).toEqual([30, 40]);
    const all: number[] = [];
    for await (const p of client.iterate('posts', { limit: 2, orderBy: 'views', order: 'desc' }))
      all.push(p.data.views!);
    expect(all).toEqual([50, 40, 30, 20, 10]);
    const filtered = await client.list('posts', { filters: { views: { gte: 40 } }, orderBy: 'views' });
    expect(filtered.items.map((p) => p.slug)).toEqual(['post-4', 'post-5']);

    // Errors carry the API's code.
    const missing = await client.get('posts', 'nope').catch((e: CmsClientError) => e);
    expect(missing).toMatchObject({ name: 'CmsClientError', code: 'NOT_FOUND', status: 404 });
    const hidden = await client.get('posts', draft.id).catch((e: CmsClientError) => e);
    expect(hidden).toMatchObject({ name: 'CmsClientError' });
    expect((hidden as CmsClientError).status).toBeGreaterThanOrEqual(400);

    // Preview: an authenticated caller asks for the link; its token reads the draft for anyone.
    const admin = createClient<{ posts: { title: string } }>({ baseUrl: `${url}/_cms/api`, token: cms.adminToken });
    const link = await admin.previewUrl('posts', draft.id);
    expect(link.url).toBe(`http://blog.example/posts/secret?preview=${link.token}`);
    const previewed = await anonymous.withPreview(link.token).get('posts', 'secret');
    expect(previewed).toMatchObject({ id: draft.id, status: 'draft', data: { title: 'Secret draft' } });
    const forged = await client
      .get('posts', 'secret', { preview: `${link.token.slice(0, -2)}AA` })
      .catch((e: CmsClientError) => e);
    expect(forged).toMatchObject({ code: 'PREVIEW_TOKEN_INVALID', status: 403 });
    // A token for one entry reads no other.
    const other = await client.get('posts', 'post-1', { preview: link.token }).catch((e: CmsClientError) => e);
    expect(other).toMatchObject({ code: 'PREVIEW_TOKEN_INVALID' });

    // Menus, terms, settings and search.
    await callOk(cms, cms.adminToken, 'POST', '/menus', { name: 'main', label: 'Main' });
    expect(await client.menus.get('main')).toMatchObject({ name: 'main', items: [] });
    await callOk(cms, cms.adminToken, 'POST', '/taxonomies', { name: 'tags', label: 'Tags' });
    await callOk(cms, cms.adminToken, 'POST', '/taxonomies/tags/terms', { label: 'News', slug: 'news' });
    await callOk(cms, cms.adminToken, 'POST', '/taxonomies/tags/terms', { label: 'Art', slug: 'art' });
    const terms = await client.terms.list('tags');
    expect(terms.items.map((t) => t.slug).sort()).toEqual(['art', 'news']);
    expect(await admin.settings.get()).toMatchObject({ siteUrl: 'http://blog.example' });
    await callOk(cms, cms.adminToken, 'POST', '/search/enable', { collection: 'posts' });
    const hits = await client.search('Post 4', { collection: 'posts' });
    expect(hits.items[0]).toMatchObject({ id: ids[3], collection: 'posts' });
  });
});

describeEachDialect('example blog against a running server', (dialect) => {
  it('lists published posts, renders one with Portable Text and srcset, and shows a draft only with its preview token', async () => {
    const { cms, url } = await site(dialect);
    const media = await uploaded(cms, await jpeg(1600, 900), { name: 'cover.jpg', type: 'image/jpeg' });
    const { item: post } = await createEntry(cms, {
      slug: 'hello-world',
      data: {
        title: 'Hello <world>',
        // The value as the admin's picker stores it.
        cover: {
          id: media.id,
          src: media.url,
          alt: 'A cover',
          width: media.width,
          height: media.height,
          mimeType: media.mimeType,
          meta: { storageKey: media.storageKey },
        },
        body: [block('Intro', 'h2'), block('Bold words', 'normal', ['strong']), block('A link', 'normal', ['l1'])],
      },
    });
    await publish(cms, post.id);
    const { item: draft } = await createEntry(cms, { slug: 'upcoming', data: { title: 'Upcoming draft' } });

    const reader = await cms.userToken(ROLES.SUBSCRIBER, ['content:read']);
    const blog = await startBlog({ cmsUrl: url, token: reader.token });
    cleanups.push(() => blog.close());

    const list = await fetch(`${blog.url}/`);
    expect(list.status).toBe(200);
    const listHtml = await list.text();
    expect(listHtml).toContain('<a href="/posts/hello-world">Hello &#60;world&#62;</a>');
    expect(listHtml).not.toContain('upcoming');

    const page = await fetch(`${blog.url}/posts/hello-world`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1>Hello &#60;world&#62;</h1>');
    expect(html).toContain('<h2>Intro</h2>');
    expect(html).toContain('<p><strong>Bold words</strong></p>');
    expect(html).toContain('<p><a href="https://example.org/">A link</a></p>');
    const img = /<img [^>]*>/.exec(html)?.[0] ?? '';
    expect(img).toContain('alt="A cover"');
    expect(img).toMatch(/srcset="[^"]*\/_cms\/api\/media\/[^"]+ 640w/);
    expect(img).toContain('sizes="');
    expect(html).not.toContain('Preview</p>');
    // The srcset's URLs answer images.
    const candidate = /srcset="([^" ]+)/.exec(img)![1].replace(/&#38;/g, '&');
    const imageRes = await fetch(candidate);
    expect(imageRes.status).toBe(200);
    expect(imageRes.headers.get('content-type')).toMatch(/^image\//);
    // The client's image URLs: a configured width is the srcset's own candidate; a format follows it.
    const reading = createClient({ baseUrl: url, token: reader.token });
    const { item: shown } = await callOk(cms, reader.token, 'GET', `/content/posts/${post.id}`);
    const at640 = shown.data.cover.srcsetCandidates.find((c: { width: number }) => c.width === 640).url;
    expect(reading.imageUrl(shown.data.cover, { w: 640 })).toBe(at640);
    const webp = await fetch(reading.imageUrl(shown.data.cover, { w: 640, fm: 'webp' }));
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect((await fetch(reading.imageUrl(media.id, { w: 320 }))).status).toBe(200);

    // The draft: not without a token, shown (marked Preview, with the live-preview listener) with one.
    expect((await fetch(`${blog.url}/posts/upcoming`)).status).toBe(404);
    const link = await callOk(cms, cms.adminToken, 'GET', `/content/posts/${draft.id}/preview-url`);
    const previewPage = await fetch(`${blog.url}/posts/upcoming?preview=${link.token}`);
    expect(previewPage.status).toBe(200);
    expect(previewPage.headers.get('cache-control')).toBe('no-store');
    const previewHtml = await previewPage.text();
    expect(previewHtml).toContain('Upcoming draft');
    expect(previewHtml).toContain('<p class="preview-badge" role="status">Preview</p>');
    expect(previewHtml).toContain("m.type !== 'cms:preview:refresh'");
    expect(previewHtml).toContain(`const CMS = ${JSON.stringify(new URL(url).origin)}`);
    // The fragment the live preview swaps in.
    const fragment = await (await fetch(`${blog.url}/posts/upcoming?preview=${link.token}&fragment=1`)).text();
    expect(fragment.startsWith('<article id="post"')).toBe(true);

    // A forged token and another entry's token are refused.
    const forged = await fetch(`${blog.url}/posts/upcoming?preview=${link.token.slice(0, -2)}AA`);
    expect(forged.status).toBe(403);
    expect(await forged.text()).not.toContain('Upcoming draft');
    expect((await fetch(`${blog.url}/posts/hello-world?preview=${link.token}`)).status).toBe(403);
  });
});

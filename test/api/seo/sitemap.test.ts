import { expect, it } from 'vitest';
import { newId } from '../../../src/core/ids.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { visit } from '../../helpers/public.js';
import { locs, sitemapErrors, urlsWithAlternates } from '../../helpers/sitemap.js';

const SITE = 'https://site.example';
const I18N = { locales: ['en', 'fr', 'de'], defaultLocale: 'en' };

async function collection(cms: TestCms, slug: string, extra: Record<string, unknown>) {
  const res = await call(cms, 'POST', '/schema/collections', {
    token: cms.adminToken,
    body: { slug, label: slug, fields: [{ slug: 'title', label: 'Title', type: 'string' }], ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function published(cms: TestCms, body: Record<string, unknown>, coll = 'posts') {
  const e = await createEntry(cms, body, cms.adminToken, coll);
  await publish(cms, e.item.id, cms.adminToken, coll);
  return e.item as { id: string; translationGroup: string };
}

async function xml(cms: TestCms, path: string) {
  const res = await visit(cms, path);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describeEachDialect('sitemaps', (dialect) => {
  it('validates URL patterns on collections (schema API), per locale too', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    const bad = async (urlPattern: unknown, path: string) => {
      const res = await call(cms, 'POST', '/schema/collections', {
        token: cms.adminToken,
        body: { slug: 'c', label: 'C', urlPattern },
      });
      expect(res.status, JSON.stringify(urlPattern)).toBe(400);
      expect(res.body.error.details.issues.map((i: { path: string[] }) => i.path.join('.'))).toContain(path);
    };
    await bad('/blog/', 'urlPattern');
    await bad('//blog/{slug}', 'urlPattern');
    await bad('/blog/{slug}/{slug}', 'urlPattern');
    await bad('/blog/{id}/{slug}', 'urlPattern');
    await bad('/blog/{slug}?x=1', 'urlPattern');
    await bad('/blog/../{slug}', 'urlPattern');
    await bad({ es: '/es/{slug}' }, 'urlPattern.es');
    await bad({ fr: 'fr/{slug}' }, 'urlPattern.fr');
    const ok = await collection(cms, 'posts', { urlPattern: { en: '/blog/{slug}', fr: '/fr/blogue/{slug}' } });
    expect(ok.urlPattern).toEqual({ en: '/blog/{slug}', fr: '/fr/blogue/{slug}' });
    const upd = await call(cms, 'PUT', '/schema/collections/posts', {
      token: cms.adminToken,
      body: { urlPattern: '/{locale}/news/{slug}' },
    });
    expect(upd.body.data.urlPattern).toBe('/{locale}/news/{slug}');
    const off = await call(cms, 'PUT', '/schema/collections/posts', {
      token: cms.adminToken,
      body: { urlPattern: null },
    });
    expect(off.body.data.urlPattern).toBeNull();
  });

  it('lists published, routable, SEO-enabled entries on a single-locale site (plain sitemap, valid XML)', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: SITE } });
    await collection(cms, 'posts', { urlPattern: '/blog/{slug}', supports: ['drafts', 'revisions', 'seo'] });
    await collection(cms, 'pages', { urlPattern: '/{slug}', supports: ['drafts'] }); // not SEO-enabled
    await collection(cms, 'notes', { supports: ['drafts', 'seo'] }); // not routable
    const a = await published(cms, { data: { title: 'A & B' }, slug: 'a-b' });
    await published(cms, { data: { title: 'Café' }, slug: 'café' });
    await createEntry(cms, { data: { title: 'Draft' }, slug: 'draft' });
    const trashed = await published(cms, { data: { title: 'T' }, slug: 'trashed' });
    await call(cms, 'DELETE', `/content/posts/${trashed.id}`, { token: cms.adminToken });
    const hidden = await published(cms, { data: { title: 'H' }, slug: 'hidden' });
    const seo = await call(cms, 'PUT', `/seo/posts/${hidden.id}`, { token: cms.adminToken, body: { noindex: true } });
    expect(seo.status).toBe(200);
    const slugless = await published(cms, { data: { title: 'S' }, slug: 'slugless' });
    await cms.database.db
      .updateTable('ec_posts' as never)
      .set({ slug: null } as never)
      .where('id' as never, '=', slugless.id as never)
      .execute();
    await published(cms, { data: { title: 'Page' }, slug: 'about' }, 'pages');
    await published(cms, { data: { title: 'Note' }, slug: 'note' }, 'notes');

    const index = await xml(cms, '/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.type).toContain('application/xml');
    expect(await sitemapErrors(index.body, 'index')).toEqual([]);
    expect(locs(index.body)).toEqual([`${SITE}/sitemap-posts.xml`]);

    const posts = await xml(cms, '/sitemap-posts.xml');
    expect(posts.status).toBe(200);
    expect(await sitemapErrors(posts.body, 'urlset')).toEqual([]);
    expect(posts.body).not.toContain('xmlns:xhtml');
    expect(locs(posts.body)).toEqual([`${SITE}/blog/a-b`, `${SITE}/blog/caf%C3%A9`]);
    const live = await call(cms, 'GET', `/content/posts/${a.id}`, { token: cms.adminToken });
    expect(posts.body).toContain(`<loc>${SITE}/blog/a-b</loc><lastmod>${live.body.data.item.updatedAt}</lastmod>`);
    expect((await xml(cms, '/sitemap-pages.xml')).status).toBe(404);
    expect((await xml(cms, '/sitemap-notes.xml')).status).toBe(404);
    expect((await xml(cms, '/sitemap-nope.xml')).status).toBe(404);
    expect((await xml(cms, '/sitemap-posts-2.xml')).status).toBe(404);
    expect((await xml(cms, '/sitemap-posts-1.xml')).status).toBe(404);
  });

  it('gives each translation its own URL with alternates per published indexable sibling and x-default', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: SITE, i18n: I18N } });
    await collection(cms, 'posts', {
      urlPattern: { en: '/blog/{slug}', fr: '/fr/blogue/{slug}' },
      supports: ['drafts', 'revisions', 'seo'],
    });
    const en = await published(cms, { data: { title: 'Hello' }, slug: 'hello' });
    await published(cms, { data: { title: 'Bonjour' }, slug: 'bonjour', locale: 'fr', translationOf: en.id });
    await createEntry(cms, { data: { title: 'Hallo' }, slug: 'hallo', locale: 'de', translationOf: en.id }); // draft
    // A group whose only published member is French: x-default falls back to it.
    const frOnly = await published(cms, { data: { title: 'Seul' }, slug: 'seul', locale: 'fr' });
    // A noindex sibling is left out of its siblings' alternates.
    const two = await published(cms, { data: { title: 'Two' }, slug: 'two' });
    const deux = await published(cms, { data: { title: 'Deux' }, slug: 'deux', locale: 'fr', translationOf: two.id });
    await call(cms, 'PUT', `/seo/posts/${deux.id}`, { token: cms.adminToken, body: { noindex: true } });
    // A locale outside the configuration is omitted.
    const es = await published(cms, { data: { title: 'Hola' }, slug: 'hola', locale: 'de', translationOf: two.id });
    await cms.database.db
      .updateTable('ec_posts' as never)
      .set({ locale: 'es' } as never)
      .where('id' as never, '=', es.id as never)
      .execute();

    const body = (await xml(cms, '/sitemap-posts.xml')).body;
    expect(await sitemapErrors(body, 'urlset')).toEqual([]);
    expect(urlsWithAlternates(body)).toEqual([
      {
        loc: `${SITE}/blog/hello`,
        alternates: [`en=${SITE}/blog/hello`, `fr=${SITE}/fr/blogue/bonjour`, `x-default=${SITE}/blog/hello`],
      },
      { loc: `${SITE}/blog/two`, alternates: [`en=${SITE}/blog/two`, `x-default=${SITE}/blog/two`] },
      {
        loc: `${SITE}/fr/blogue/bonjour`,
        alternates: [`en=${SITE}/blog/hello`, `fr=${SITE}/fr/blogue/bonjour`, `x-default=${SITE}/blog/hello`],
      },
      { loc: `${SITE}/fr/blogue/seul`, alternates: [`fr=${SITE}/fr/blogue/seul`, `x-default=${SITE}/fr/blogue/seul`] },
    ]);
    expect(frOnly.id).toBeTruthy();
  });

  it('splits a collection at 50,000 URLs, each file valid', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: SITE } });
    await collection(cms, 'posts', { urlPattern: '/p/{slug}', supports: ['seo'] });
    const now = '2026-01-01T00:00:00.000Z';
    const total = 50_001;
    await cms.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i += 1000) {
        const rows = [];
        for (let j = i; j < Math.min(total, i + 1000); j++) {
          const id = newId();
          rows.push({
            id,
            slug: `entry-${String(j).padStart(5, '0')}`,
            status: 'published',
            locale: 'en',
            translation_group: id,
            created_at: now,
            updated_at: now,
            published_at: now,
            version: 1,
          });
        }
        await trx
          .insertInto('ec_posts' as never)
          .values(rows as never)
          .execute();
      }
    });
    const index = await xml(cms, '/sitemap.xml');
    expect(locs(index.body)).toEqual([`${SITE}/sitemap-posts.xml`, `${SITE}/sitemap-posts-2.xml`]);
    const first = await xml(cms, '/sitemap-posts.xml');
    const firstLocs = locs(first.body);
    expect(firstLocs).toHaveLength(50_000);
    expect(await sitemapErrors(first.body, 'urlset')).toEqual([]);
    const second = await xml(cms, '/sitemap-posts-2.xml');
    expect(await sitemapErrors(second.body, 'urlset')).toEqual([]);
    const secondLocs = locs(second.body);
    expect(secondLocs).toHaveLength(1);
    expect(new Set([...firstLocs, ...secondLocs]).size).toBe(total);
    expect((await xml(cms, '/sitemap-posts-3.xml')).status).toBe(404);
  }, 120_000);
});

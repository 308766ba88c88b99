import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

const SITE = 'https://site.example';
const I18N = { locales: ['en', 'fr', 'de'], defaultLocale: 'en' };

async function posts(cms: TestCms, extra: Record<string, unknown> = {}) {
  const res = await call(cms, 'POST', '/schema/collections', {
    token: cms.adminToken,
    body: {
      slug: 'posts',
      label: 'Posts',
      urlPattern: '/blog/{slug}',
      supports: ['drafts', 'revisions', 'seo'],
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function published(cms: TestCms, body: Record<string, unknown>) {
  const e = await createEntry(cms, body);
  await publish(cms, e.item.id);
  return e.item as { id: string };
}

const alternates = async (cms: TestCms, id: string, query = '', token: string | null = null) => {
  const res = await call(cms, 'GET', `/seo/posts/${id}/alternates${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.items.map((a: { hreflang: string; href: string }) => `${a.hreflang}=${a.href}`);
};

describeEachDialect('hreflang alternates and entry SEO', (dialect) => {
  it('answers rule 8: self, published indexable siblings, x-default; none for noindex', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: SITE, i18n: I18N } });
    await posts(cms);
    const en = await published(cms, { data: { title: 'Hello' }, slug: 'hello' });
    const fr = await published(cms, {
      data: { title: 'Bonjour' },
      slug: 'bonjour',
      locale: 'fr',
      translationOf: en.id,
    });
    const de = await createEntry(cms, { data: { title: 'Hallo' }, slug: 'hallo', locale: 'de', translationOf: en.id });
    const expected = [`en=${SITE}/blog/hello`, `fr=${SITE}/fr/blog/bonjour`, `x-default=${SITE}/blog/hello`];
    expect(await alternates(cms, en.id)).toEqual(expected);
    expect(await alternates(cms, fr.id)).toEqual(expected);
    // A draft is a preview: draft readers may ask; the public may not.
    expect((await call(cms, 'GET', `/seo/posts/${de.item.id}/alternates`, { token: null })).status).toBe(404);
    expect(await alternates(cms, de.item.id, '', cms.adminToken)).toEqual(expected);
    // Another base URL from the call.
    expect(await alternates(cms, en.id, '?siteUrl=https://www.example.org/')).toEqual([
      'en=https://www.example.org/blog/hello',
      'fr=https://www.example.org/fr/blog/bonjour',
      'x-default=https://www.example.org/blog/hello',
    ]);
    const badBase = await call(cms, 'GET', `/seo/posts/${en.id}/alternates?siteUrl=javascript:x`, { token: null });
    expect(badBase.status).toBe(400);
    expect(badBase.body.error.details.issues[0].path).toEqual(['siteUrl']);

    // A noindex sibling drops out; a noindex entry gets nothing.
    await call(cms, 'PUT', `/seo/posts/${fr.id}`, { token: cms.adminToken, body: { noindex: true } });
    expect(await alternates(cms, en.id)).toEqual([`en=${SITE}/blog/hello`, `x-default=${SITE}/blog/hello`]);
    expect(await alternates(cms, fr.id)).toEqual([]);

    // An untranslated entry still gets itself and x-default; without the default locale, x-default is the first.
    const solo = await published(cms, { data: { title: 'Solo' }, slug: 'solo', locale: 'de' });
    expect(await alternates(cms, solo.id)).toEqual([`de=${SITE}/de/blog/solo`, `x-default=${SITE}/de/blog/solo`]);
  });

  it('is empty when i18n is off or the collection is not routable and SEO-enabled', async () => {
    const single = await testCms(dialect, { config: { publicUrl: SITE } });
    await posts(single);
    const a = await published(single, { data: { title: 'A' }, slug: 'a' });
    expect(await alternates(single, a.id)).toEqual([]);

    const cms = await testCms(dialect, { config: { publicUrl: SITE, i18n: I18N } });
    await posts(cms, { supports: ['drafts'] });
    const b = await published(cms, { data: { title: 'B' }, slug: 'b' });
    expect(await alternates(cms, b.id)).toEqual([]);
    expect((await call(cms, 'GET', '/seo/posts/01ARZ3NDEKTSV4RRFFQ69G5FAV/alternates', { token: null })).status).toBe(
      404,
    );
  });

  it('keeps entry SEO per entry: edit rights, publish rights on live entries, delete and duplicate', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: SITE } });
    await posts(cms);
    const contributor = await cms.userToken(ROLES.CONTRIBUTOR);
    const author = await cms.userToken(ROLES.AUTHOR);
    const own = await createEntry(cms, { data: { title: 'Mine' } }, contributor.token);
    const put = (token: string, id: string, body: Record<string, unknown>) =>
      call(cms, 'PUT', `/seo/posts/${id}`, { token, body });

    const draftSeo = await put(contributor.token, own.item.id, { title: ' My title ', description: 'About' });
    expect(draftSeo.status, JSON.stringify(draftSeo.body)).toBe(200);
    expect(draftSeo.body.data).toMatchObject({
      title: 'My title',
      description: 'About',
      noindex: false,
      canonical: null,
    });
    await publish(cms, own.item.id);
    // Live now: changing what the live page and the sitemap say needs the right to publish.
    const live = await put(contributor.token, own.item.id, { noindex: true });
    expect(live.status).toBe(403);
    const others = await put(author.token, own.item.id, { noindex: true });
    expect(others.status).toBe(403);
    const mine = await createEntry(cms, { data: { title: 'Author’s' } }, author.token);
    await publish(cms, mine.item.id, author.token);
    const ok = await put(author.token, mine.item.id, { noindex: true, canonical: 'https://site.example/c' });
    expect(ok.body.data).toMatchObject({ noindex: true, canonical: 'https://site.example/c' });
    // Partial: an omitted key keeps its value.
    const partial = await put(author.token, mine.item.id, { title: 'T' });
    expect(partial.body.data).toMatchObject({ title: 'T', noindex: true });
    for (const [body, field] of [
      [{ canonical: 'javascript:x' }, 'canonical'],
      [{ title: 'x\u0000' }, 'title'],
      [{ description: 'd'.repeat(501) }, 'description'],
    ] as const) {
      const bad = await put(cms.adminToken, mine.item.id, body);
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.issues[0].path).toEqual([field]);
    }

    const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
    const read = await call(cms, 'GET', `/seo/posts/${mine.item.id}`, { token: subscriber.token });
    expect(read.body.data.title).toBe('T');
    const draft = await createEntry(cms, { data: { title: 'Hidden' } });
    expect((await call(cms, 'GET', `/seo/posts/${draft.item.id}`, { token: subscriber.token })).status).toBe(404);

    const dup = await call(cms, 'POST', `/content/posts/${mine.item.id}/duplicate`, {
      token: cms.adminToken,
      body: {},
    });
    expect(dup.status, JSON.stringify(dup.body)).toBe(201);
    const copied = await call(cms, 'GET', `/seo/posts/${dup.body.data.item.id}`, { token: cms.adminToken });
    expect(copied.body.data).toMatchObject({ title: 'T', noindex: true });
    await call(cms, 'DELETE', `/content/posts/${mine.item.id}`, { token: cms.adminToken });
    await call(cms, 'DELETE', `/content/posts/${mine.item.id}/permanent`, { token: cms.adminToken });
    const rows = await cms.database.db.selectFrom('_cms_seo').select('entry_id').execute();
    expect(rows.map((r) => r.entry_id).sort()).toEqual([dup.body.data.item.id, own.item.id].sort());

    await call(cms, 'PUT', '/schema/collections/posts', { token: cms.adminToken, body: { supports: ['drafts'] } });
    const disabled = await put(cms.adminToken, own.item.id, { noindex: true });
    expect(disabled.status).toBe(400);
    expect(disabled.body.error.details.issues[0].path).toEqual(['collection']);
  });
});

import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { I18N, ok, taxonomy, term } from './helpers.js';

async function site(dialect: 'sqlite' | 'postgres') {
  const cms = await testCms(dialect, { config: { i18n: I18N } });
  await postsCollection(cms);
  await postsCollection(cms, { slug: 'pages' });
  await taxonomy(cms, { name: 'tags', label: 'Tags', collections: ['posts'] });
  const news = await term(cms, 'tags', { label: 'News' });
  const sport = await term(cms, 'tags', { label: 'Sport' });
  const newsFr = await term(cms, 'tags', { label: 'Actualités', locale: 'fr', translationOf: news.id });
  return { cms, news, sport, newsFr };
}

const termsOf = async (cms: TestCms, id: string, token = cms.adminToken, collection = 'posts') =>
  (await ok(cms, 'GET', `/content/${collection}/${id}/terms/tags`, undefined, token)).items.map((t: any) => t.label);

describeEachDialect('content terms', (dialect) => {
  it('an assignment spans every locale of the entry and a new translation inherits it', async () => {
    const { cms, news, sport } = await site(dialect);
    const en = (await createEntry(cms, { data: { title: 'Match report' } })).item;
    const set = await ok(cms, 'POST', `/content/posts/${en.id}/terms/tags`, { terms: ['news', sport.id, 'news'] });
    expect(set).toMatchObject({ taxonomy: 'tags', locale: 'en' });
    expect(set.items.map((t: any) => t.id)).toEqual([news.id, sport.id]);
    const fr = (await createEntry(cms, { data: { title: 'Compte rendu' }, locale: 'fr', translationOf: en.id })).item;
    // fr: News has a fr translation; Sport has none and falls back to en (fr → en).
    expect(await termsOf(cms, fr.id)).toEqual(['Actualités', 'Sport']);
    const de = (await createEntry(cms, { data: { title: 'Bericht' }, locale: 'de', translationOf: en.id })).item;
    expect(await termsOf(cms, de.id)).toEqual(['News', 'Sport']);
    // Setting terms through the fr translation (fr slugs) changes what every locale shows.
    await ok(cms, 'POST', `/content/posts/${fr.id}/terms/tags`, { terms: ['actualites'] });
    expect(await termsOf(cms, en.id)).toEqual(['News']);
    expect(await termsOf(cms, de.id)).toEqual(['News']);
    // By slug with ?locale=.
    expect((await ok(cms, 'GET', `/content/posts/${fr.slug}/terms/tags?locale=fr`)).locale).toBe('fr');
    await ok(cms, 'POST', `/content/posts/${en.id}/terms/tags`, { terms: [] });
    expect(await termsOf(cms, fr.id)).toEqual([]);
  });

  it('accepts only the collections the taxonomy lists, and known terms', async () => {
    const { cms } = await site(dialect);
    const page = (await createEntry(cms, { data: { title: 'About' } }, cms.adminToken, 'pages')).item;
    const refused = await call(cms, 'POST', `/content/pages/${page.id}/terms/tags`, {
      token: cms.adminToken,
      body: { terms: ['news'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0]).toMatchObject({ path: ['taxonomy'], code: 'not_applicable' });
    expect((await call(cms, 'GET', `/content/pages/${page.id}/terms/tags`, { token: cms.adminToken })).status).toBe(
      400,
    );
    const post = (await createEntry(cms, { data: { title: 'P' } })).item;
    const unknown = await call(cms, 'POST', `/content/posts/${post.id}/terms/tags`, {
      token: cms.adminToken,
      body: { terms: ['news', 'nope'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.issues[0].path).toEqual(['terms', 1]);
    expect(await termsOf(cms, post.id)).toEqual([]);
    const tooMany = await call(cms, 'POST', `/content/posts/${post.id}/terms/tags`, {
      token: cms.adminToken,
      body: { terms: Array.from({ length: 101 }, (_, i) => `t${i}`) },
    });
    expect(tooMany.status).toBe(400);
    expect((await call(cms, 'GET', `/content/posts/${post.id}/terms/nope`, { token: cms.adminToken })).status).toBe(
      404,
    );
    expect(
      (await call(cms, 'GET', '/content/posts/01ARZ3NDEKTSV4RRFFQ69G5FAV/terms/tags', { token: cms.adminToken }))
        .status,
    ).toBe(404);
  });

  it('readers without draft access see terms of published entries only', async () => {
    const { cms } = await site(dialect);
    const { token } = await cms.userToken(ROLES.SUBSCRIBER);
    const draft = (await createEntry(cms, { data: { title: 'Draft' } })).item;
    await ok(cms, 'POST', `/content/posts/${draft.id}/terms/tags`, { terms: ['news'] });
    expect((await call(cms, 'GET', `/content/posts/${draft.id}/terms/tags`, { token })).status).toBe(404);
    await publish(cms, draft.id);
    expect(await termsOf(cms, draft.id, token)).toEqual(['News']);
  });

  it('filters the content list by term, in the list locale', async () => {
    const { cms, news } = await site(dialect);
    const ids: Record<string, string> = {};
    for (const [title, terms] of [
      ['a', ['news']],
      ['b', ['sport']],
      ['c', ['news', 'sport']],
      ['d', []],
    ] as const) {
      const e = (await createEntry(cms, { data: { title } })).item;
      ids[title] = e.id;
      await ok(cms, 'POST', `/content/posts/${e.id}/terms/tags`, { terms });
    }
    const titles = async (query: string) =>
      (await ok(cms, 'GET', `/content/posts?${query}`)).items.map((e: any) => e.data.title).sort();
    expect(await titles('term=tags:news')).toEqual(['a', 'c']);
    expect(await titles('term=tags:news,sport')).toEqual(['a', 'b', 'c']);
    expect(await titles('term=tags:unknown')).toEqual([]);
    expect(await titles('term=tags:news&orderBy=title&limit=1')).toEqual(['a']);
    const fr = (await createEntry(cms, { data: { title: 'a-fr' }, locale: 'fr', translationOf: ids.a })).item;
    expect(await titles('term=tags:actualites&locale=fr')).toEqual(['a-fr']);
    expect(fr.id).toBeDefined();
    expect((await ok(cms, 'GET', `/content/posts?term=tags:news&page=1`)).total).toBe(2);
    for (const bad of ['tags', ':news', 'nope:news', 'tags:']) {
      const res = await call(cms, 'GET', `/content/posts?term=${encodeURIComponent(bad)}`, { token: cms.adminToken });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.details.issues[0].path, bad).toEqual(['term']);
    }
    const notHere = await call(cms, 'GET', '/content/pages?term=tags:news', { token: cms.adminToken });
    expect(notHere.status).toBe(400);
    expect(news.id).toBeDefined();
  });

  it('keeps counts of published entries per locale through publish, unpublish, trash, restore and delete', async () => {
    const { cms, news } = await site(dialect);
    const count = async (locale = 'en', slug = 'news') =>
      (await ok(cms, 'GET', `/taxonomies/tags/terms/${slug}?locale=${locale}`)).count;
    const en = (await createEntry(cms, { data: { title: 'One' } })).item;
    await ok(cms, 'POST', `/content/posts/${en.id}/terms/tags`, { terms: ['news'] });
    expect(await count()).toBe(0);
    await publish(cms, en.id);
    expect(await count()).toBe(1);
    const fr = (await createEntry(cms, { data: { title: 'Un' }, locale: 'fr', translationOf: en.id })).item;
    expect(await count('fr', 'actualites')).toBe(0);
    await publish(cms, fr.id);
    expect(await count('fr', 'actualites')).toBe(1);
    expect(await count()).toBe(1);
    const post = (path: string) => ok(cms, 'POST', path, {});
    await post(`/content/posts/${en.id}/unpublish`);
    expect(await count()).toBe(0);
    await publish(cms, en.id);
    expect(await count()).toBe(1);
    await ok(cms, 'DELETE', `/content/posts/${en.id}`);
    expect(await count()).toBe(0);
    await post(`/content/posts/${en.id}/restore`);
    expect(await count()).toBe(0); // restored as a draft
    await publish(cms, en.id);
    expect(await count()).toBe(1);
    // A duplicate carries the terms; it counts once published.
    const copy = (await ok(cms, 'POST', `/content/posts/${en.id}/duplicate`, {})).item;
    expect(await termsOf(cms, copy.id)).toEqual(['News']);
    await publish(cms, copy.id);
    expect(await count()).toBe(2);
    // Removing the term from the group takes both locales' entries out of the counts.
    await ok(cms, 'POST', `/content/posts/${fr.id}/terms/tags`, { terms: ['sport'] });
    expect(await count()).toBe(1);
    expect(await count('fr', 'actualites')).toBe(0);
    expect(await count('en', 'sport')).toBe(1);
    expect(news.id).toBeDefined();
  });

  it('permanent delete of the last entry of a group removes its assignments; an earlier one keeps them', async () => {
    const { cms } = await site(dialect);
    const en = (await createEntry(cms, { data: { title: 'One' } })).item;
    const fr = (await createEntry(cms, { data: { title: 'Un' }, locale: 'fr', translationOf: en.id })).item;
    await ok(cms, 'POST', `/content/posts/${en.id}/terms/tags`, { terms: ['news'] });
    await publish(cms, en.id);
    const gone = async (id: string) => {
      await ok(cms, 'DELETE', `/content/posts/${id}`);
      await ok(cms, 'DELETE', `/content/posts/${id}/permanent`);
    };
    await gone(en.id);
    expect((await ok(cms, 'GET', '/taxonomies/tags/terms/news')).count).toBe(0);
    expect(await termsOf(cms, fr.id)).toEqual(['Actualités']);
    await gone(fr.id);
    expect(await cms.database.db.selectFrom('_cms_content_terms').selectAll().execute()).toEqual([]);
    expect(await cms.database.db.selectFrom('_cms_term_counted').selectAll().execute()).toEqual([]);
  });

  it('counts only the collections the taxonomy lists; dropping one keeps its assignments for later', async () => {
    const { cms } = await site(dialect);
    await ok(cms, 'PUT', '/taxonomies/tags', { collections: ['posts', 'pages'] });
    const page = (await createEntry(cms, { data: { title: 'About' } }, cms.adminToken, 'pages')).item;
    await ok(cms, 'POST', `/content/pages/${page.id}/terms/tags`, { terms: ['news'] });
    await publish(cms, page.id, cms.adminToken, 'pages');
    const post = (await createEntry(cms, { data: { title: 'Post' } })).item;
    await ok(cms, 'POST', `/content/posts/${post.id}/terms/tags`, { terms: ['news'] });
    await publish(cms, post.id);
    expect((await ok(cms, 'GET', '/taxonomies/tags/terms/news')).count).toBe(2);
    await ok(cms, 'PUT', '/taxonomies/tags', { collections: ['posts'] });
    expect((await ok(cms, 'GET', '/taxonomies/tags/terms/news')).count).toBe(1);
    await ok(cms, 'PUT', '/taxonomies/tags', { collections: ['posts', 'pages'] });
    expect((await ok(cms, 'GET', '/taxonomies/tags/terms/news')).count).toBe(2);
    expect(await termsOf(cms, page.id, cms.adminToken, 'pages')).toEqual(['News']);
  });

  it('deleting a term removes it from entries when its last locale goes', async () => {
    const { cms } = await site(dialect);
    const en = (await createEntry(cms, { data: { title: 'One' } })).item;
    await ok(cms, 'POST', `/content/posts/${en.id}/terms/tags`, { terms: ['news', 'sport'] });
    await ok(cms, 'DELETE', '/taxonomies/tags/terms/actualites?locale=fr');
    expect(await termsOf(cms, en.id)).toEqual(['News', 'Sport']);
    await ok(cms, 'DELETE', '/taxonomies/tags/terms/news');
    expect(await termsOf(cms, en.id)).toEqual(['Sport']);
  });
});

describeEachDialect('content terms: a group-wide write checks every translation', (dialect) => {
  it('refuses roles below Editor whose right stops at one translation; nothing changes', async () => {
    const { cms } = await site(dialect);
    const editor = await cms.userToken(ROLES.EDITOR);
    const author = await cms.userToken(ROLES.AUTHOR);
    const contributor = await cms.userToken(ROLES.CONTRIBUTOR);
    const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
    // The Editor's published entry; a Contributor and an Author each add a draft translation of it.
    const live = (await createEntry(cms, { data: { title: 'Live' } }, editor.token)).item;
    await publish(cms, live.id, editor.token);
    await ok(cms, 'POST', `/content/posts/${live.id}/terms/tags`, { terms: ['news'] }, editor.token);
    const frByContributor = (
      await createEntry(cms, { data: { title: 'Vivant' }, locale: 'fr', translationOf: live.id }, contributor.token)
    ).item;
    const deByAuthor = (
      await createEntry(cms, { data: { title: 'Lebendig' }, locale: 'de', translationOf: live.id }, author.token)
    ).item;
    for (const [who, token, id] of [
      ['contributor', contributor.token, frByContributor.id],
      ['author', author.token, deByAuthor.id],
    ] as const) {
      const res = await call(cms, 'POST', `/content/posts/${id}/terms/tags`, { token, body: { terms: ['sport'] } });
      expect(res.status, who).toBe(403);
      expect(res.body.error.code, who).toBe('INSUFFICIENT_PERMISSIONS');
      // The first translation in the way is named: never the caller's own one.
      expect(res.body.error.details.entryId, who).not.toBe(id);
      expect(res.body.error.message, who).toContain('shared by every translation');
    }
    const sub = await call(cms, 'POST', `/content/posts/${live.id}/terms/tags`, {
      token: subscriber.token,
      body: { terms: ['sport'] },
    });
    expect(sub.status).toBe(403);
    expect(await termsOf(cms, live.id)).toEqual(['News']);
    // Editors manage all content.
    await ok(cms, 'POST', `/content/posts/${frByContributor.id}/terms/tags`, { terms: ['sport'] }, editor.token);
    expect(await termsOf(cms, live.id)).toEqual(['Sport']);
  });

  it('lets each role change the terms of groups it fully owns', async () => {
    const { cms } = await site(dialect);
    const author = await cms.userToken(ROLES.AUTHOR);
    const contributor = await cms.userToken(ROLES.CONTRIBUTOR);
    // A Contributor's own drafts (both locales) are theirs to tag.
    const draft = (await createEntry(cms, { data: { title: 'Mine' } }, contributor.token)).item;
    await createEntry(cms, { data: { title: 'À moi' }, locale: 'fr', translationOf: draft.id }, contributor.token);
    await ok(cms, 'POST', `/content/posts/${draft.id}/terms/tags`, { terms: ['news'] }, contributor.token);
    // Once an Editor publishes it, the live change needs the right to publish: refused for the Contributor.
    await publish(cms, draft.id);
    const live = await call(cms, 'POST', `/content/posts/${draft.id}/terms/tags`, {
      token: contributor.token,
      body: { terms: [] },
    });
    expect(live.status).toBe(403);
    // An Author publishes own entries, so may retag them while live.
    const own = (await createEntry(cms, { data: { title: 'Own' } }, author.token)).item;
    await publish(cms, own.id, author.token);
    await ok(cms, 'POST', `/content/posts/${own.id}/terms/tags`, { terms: ['sport'] }, author.token);
    // …but not someone else's draft.
    const other = await call(cms, 'POST', `/content/posts/${draft.id}/terms/tags`, {
      token: author.token,
      body: { terms: [] },
    });
    expect(other.status).toBe(403);
  });

  it('needs a content:write token; taxonomies:manage alone does not write content', async () => {
    const { cms } = await site(dialect);
    const entry = (await createEntry(cms, { data: { title: 'E' } })).item;
    const readOnly = await cms.userToken(ROLES.EDITOR, ['content:read']);
    const taxOnly = await cms.userToken(ROLES.EDITOR, ['taxonomies:manage', 'content:read']);
    for (const { token } of [readOnly, taxOnly]) {
      const res = await call(cms, 'POST', `/content/posts/${entry.id}/terms/tags`, {
        token,
        body: { terms: ['news'] },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
    expect(await termsOf(cms, entry.id, readOnly.token)).toEqual([]);
  });
});

import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { I18N, ok, taxonomy, term } from '../structure/helpers.js';

/** createContent and updateContent take `terms`, applied in the entry write's own transaction. */
async function site(dialect: 'sqlite' | 'postgres') {
  const cms = await testCms(dialect, { config: { i18n: I18N } });
  await postsCollection(cms);
  await postsCollection(cms, { slug: 'pages' });
  await taxonomy(cms, { name: 'tags', label: 'Tags', collections: ['posts'] });
  await taxonomy(cms, { name: 'sections', label: 'Sections', collections: ['pages'] });
  const news = await term(cms, 'tags', { label: 'News' });
  const sport = await term(cms, 'tags', { label: 'Sport' });
  await term(cms, 'tags', { label: 'Actualités', locale: 'fr', translationOf: news.id });
  return { cms, news, sport };
}

const termsOf = async (cms: TestCms, id: string, taxonomyName = 'tags') =>
  (await ok(cms, 'GET', `/content/posts/${id}/terms/${taxonomyName}`)).items.map((t: any) => t.slug);

const count = async (cms: TestCms) => (await ok(cms, 'GET', '/content/posts?page=1')).total as number;

describeEachDialect('content writes with terms (REST)', (dialect) => {
  it('createContent and updateContent set the terms of each taxonomy named, by slug or ID', async () => {
    const { cms, sport } = await site(dialect);
    const made = await createEntry(cms, { data: { title: 'Match' }, terms: { tags: ['news', sport.id] } });
    expect(await termsOf(cms, made.item.id)).toEqual(['news', 'sport']);
    // The list's term filter sees them at once.
    const listed = await ok(cms, 'GET', '/content/posts?term=tags:sport');
    expect(listed.items.map((i: any) => i.id)).toEqual([made.item.id]);

    // An update replaces the taxonomy's terms, alone or with other changes; `tags: []` clears them.
    const retagged = await call(cms, 'PUT', `/content/posts/${made.item.id}`, {
      token: cms.adminToken,
      body: { data: { title: 'Match report' }, terms: { tags: ['sport'] }, _rev: made._rev },
    });
    expect(retagged.status, JSON.stringify(retagged.body)).toBe(200);
    expect(retagged.body.data.item.data.title).toBe('Match report');
    expect(await termsOf(cms, made.item.id)).toEqual(['sport']);
    await ok(cms, 'PUT', `/content/posts/${made.item.id}`, { terms: { tags: [] } });
    expect(await termsOf(cms, made.item.id)).toEqual([]);
    // Without `terms` an update leaves them alone.
    await ok(cms, 'PUT', `/content/posts/${made.item.id}`, { terms: { tags: ['news'] } });
    await ok(cms, 'PUT', `/content/posts/${made.item.id}`, { data: { title: 'Again' } });
    expect(await termsOf(cms, made.item.id)).toEqual(['news']);

    // A translation created with terms sets them for the group; slugs are looked up in its locale.
    const fr = await createEntry(cms, {
      data: { title: 'Compte rendu' },
      locale: 'fr',
      translationOf: made.item.id,
      terms: { tags: ['actualites', 'sport'] },
    });
    expect(await termsOf(cms, made.item.id)).toEqual(['news', 'sport']);
    expect(await termsOf(cms, fr.item.id)).toEqual(['actualites', 'sport']);
  });

  it('a refused term refuses the whole write: 400 or 404, nothing written', async () => {
    const { cms } = await site(dialect);
    const before = await count(cms);
    const cases: Array<[Record<string, string[]>, number, unknown[]]> = [
      [{ tags: ['news', 'nope'] }, 400, ['terms', 1]],
      [{ sections: ['x'] }, 400, ['terms', 'sections']],
    ];
    for (const [terms, status, path] of cases) {
      const res = await call(cms, 'POST', '/content/posts', {
        token: cms.adminToken,
        body: { data: { title: 'Refused' }, slug: 'refused', terms },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.details.issues[0].path).toEqual(path);
    }
    const unknown = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { data: { title: 'Refused' }, slug: 'refused', terms: { nope: ['news'] } },
    });
    expect(unknown.status).toBe(404);
    // The schema's own limits: a taxonomy name and term refs are bounded strings, at most 100 refs.
    const tooMany = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { data: { title: 'Refused' }, terms: { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) } },
    });
    expect(tooMany.status).toBe(400);
    expect(await count(cms)).toBe(before);
    // The slug the refused creates asked for is still free: no entry row was left behind.
    await createEntry(cms, { data: { title: 'Fine' }, slug: 'refused' });

    const entry = await createEntry(cms, { data: { title: 'Kept' }, terms: { tags: ['news'] } });
    for (const terms of [{ tags: ['nope'] }, { nope: ['news'] }, { sections: ['x'] }]) {
      const res = await call(cms, 'PUT', `/content/posts/${entry.item.id}`, {
        token: cms.adminToken,
        body: { data: { title: 'Changed' }, slug: 'changed', terms },
      });
      expect([400, 404], JSON.stringify(res.body)).toContain(res.status);
      const now = await ok(cms, 'GET', `/content/posts/${entry.item.id}`);
      expect(now.item.data.title).toBe('Kept');
      expect(now.item.slug).toBe(entry.item.slug);
      expect(now._rev).toBe(entry._rev);
      expect(await termsOf(cms, entry.item.id)).toEqual(['news']);
    }
  });

  it('terms are shared by the translation group: a caller who may not change every translation is refused', async () => {
    const { cms } = await site(dialect);
    const live = await createEntry(cms, { data: { title: 'Live' }, terms: { tags: ['news'] } });
    await ok(cms, 'POST', `/content/posts/${live.item.id}/publish`, {});
    const contributor = await cms.userToken(ROLES.CONTRIBUTOR);
    const mine = await createEntry(
      cms,
      { data: { title: 'Mine' }, locale: 'fr', translationOf: live.item.id },
      contributor.token,
    );
    const refused = await call(cms, 'PUT', `/content/posts/${mine.item.id}`, {
      token: contributor.token,
      body: { data: { title: 'Changed' }, terms: { tags: ['sport'] } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(refused.body.error.details.entryId).toBe(live.item.id);
    expect((await ok(cms, 'GET', `/content/posts/${mine.item.id}`)).item.data.title).toBe('Mine');
    expect(await termsOf(cms, live.item.id)).toEqual(['news']);
    // The same text change without terms goes through.
    await ok(cms, 'PUT', `/content/posts/${mine.item.id}`, { data: { title: 'Changed' } }, contributor.token);
  });
});

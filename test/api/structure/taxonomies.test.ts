import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { postsCollection } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { I18N, ok, taxonomy } from './helpers.js';

describeEachDialect('taxonomy definitions', (dialect) => {
  it('creates a definition and a locale variant that takes the taxonomy-wide values (rule 3)', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    await postsCollection(cms);
    const en = await taxonomy(cms, {
      name: 'topics',
      label: 'Topics',
      labelSingular: 'Topic',
      hierarchical: true,
      collections: ['posts'],
    });
    expect(en).toMatchObject({
      name: 'topics',
      locale: 'en',
      hierarchical: true,
      collections: ['posts'],
      locales: ['en'],
    });
    // Same name in another locale, without translationOf: a variant with the taxonomy's values.
    const fr = await taxonomy(cms, { name: 'topics', label: 'Sujets', locale: 'fr' });
    expect(fr).toMatchObject({ label: 'Sujets', labelSingular: 'Sujets', hierarchical: true, collections: ['posts'] });
    expect(fr.locales).toEqual(['en', 'fr']);
    // With translationOf the name may be left out.
    const de = await taxonomy(cms, { translationOf: en.id, label: 'Themen', locale: 'de' });
    expect(de).toMatchObject({ name: 'topics', locale: 'de' });

    const differs = await call(cms, 'POST', '/taxonomies', {
      token: cms.adminToken,
      body: { name: 'topics', label: 'X', locale: 'de', hierarchical: false, collections: [] },
    });
    expect(differs.status).toBe(400);
    expect(differs.body.error.code).toBe('VALIDATION_ERROR');
    expect(differs.body.error.details.issues.map((i: any) => i.path[0]).sort()).toEqual([
      'collections',
      'hierarchical',
    ]);

    const again = await call(cms, 'POST', '/taxonomies', {
      token: cms.adminToken,
      body: { name: 'topics', label: 'Again', locale: 'fr' },
    });
    expect(again.status).toBe(409);
    const wrongName = await call(cms, 'POST', '/taxonomies', {
      token: cms.adminToken,
      body: { name: 'other', translationOf: en.id, label: 'X', locale: 'de' },
    });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.error.details.issues[0].path).toEqual(['name']);
    const unknownCollection = await call(cms, 'POST', '/taxonomies', {
      token: cms.adminToken,
      body: { name: 'kinds', label: 'Kinds', collections: ['posts', 'nope'] },
    });
    expect(unknownCollection.status).toBe(400);
    expect(unknownCollection.body.error.details.issues[0].path).toEqual(['collections', 1]);
  });

  it('GET resolves the locale: default first, then the lowest locale code (rule 1)', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    await taxonomy(cms, { name: 'topics', label: 'Sujets', locale: 'fr' });
    await taxonomy(cms, { name: 'topics', label: 'Themen', locale: 'de' });
    // No default-locale (en) definition: the lowest code (de) wins.
    expect((await ok(cms, 'GET', '/taxonomies/topics')).label).toBe('Themen');
    expect((await ok(cms, 'GET', '/taxonomies/topics?locale=fr')).label).toBe('Sujets');
    const missing = await call(cms, 'GET', '/taxonomies/topics?locale=en', { token: cms.adminToken });
    expect(missing.status).toBe(404);
    await taxonomy(cms, { name: 'topics', label: 'Topics', locale: 'en' });
    expect((await ok(cms, 'GET', '/taxonomies/topics')).label).toBe('Topics');
    const unconfigured = await call(cms, 'GET', '/taxonomies/topics?locale=it', { token: cms.adminToken });
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.error.details.issues[0].path).toEqual(['locale']);
    expect((await call(cms, 'GET', '/taxonomies/nope', { token: cms.adminToken })).status).toBe(404);
  });

  it('PUT without locale changes the lowest locale code; a locale without a definition is NOT_FOUND (rule 2)', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    await taxonomy(cms, { name: 'topics', label: 'Topics' });
    await taxonomy(cms, { name: 'topics', label: 'Sujets', locale: 'fr' });
    const changed = await ok(cms, 'PUT', '/taxonomies/topics', { label: 'Subjects' });
    // en < fr: the en definition changed, fr kept its label.
    expect(changed).toMatchObject({ locale: 'en', label: 'Subjects' });
    expect((await ok(cms, 'GET', '/taxonomies/topics?locale=fr')).label).toBe('Sujets');
    const none = await call(cms, 'PUT', '/taxonomies/topics?locale=de', {
      token: cms.adminToken,
      body: { label: 'Themen' },
    });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('NOT_FOUND');
    await taxonomy(cms, { name: 'topics', label: 'Themen', locale: 'de' });
    expect((await ok(cms, 'PUT', '/taxonomies/topics', { labelSingular: 'Thema' })).locale).toBe('de');
  });

  it('hierarchical and collections change for every locale (rule 4)', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    await postsCollection(cms);
    await postsCollection(cms, { slug: 'pages' });
    await taxonomy(cms, { name: 'topics', label: 'Topics', collections: ['posts'] });
    await taxonomy(cms, { name: 'topics', label: 'Sujets', locale: 'fr' });
    await ok(cms, 'PUT', '/taxonomies/topics?locale=fr', { hierarchical: true, collections: ['posts', 'pages'] });
    for (const locale of ['en', 'fr']) {
      expect(await ok(cms, 'GET', `/taxonomies/topics?locale=${locale}`)).toMatchObject({
        hierarchical: true,
        collections: ['posts', 'pages'],
      });
    }
    const translations = await ok(cms, 'GET', '/taxonomies/topics/translations');
    expect(translations.items.map((d: any) => [d.locale, d.label])).toEqual([
      ['en', 'Topics'],
      ['fr', 'Sujets'],
    ]);
  });

  it('a nested taxonomy cannot turn flat while terms have parents', async () => {
    const cms = await testCms(dialect);
    await taxonomy(cms, { name: 'cats', label: 'Categories', hierarchical: true });
    const parent = await ok(cms, 'POST', '/taxonomies/cats/terms', { label: 'News' });
    const child = await ok(cms, 'POST', '/taxonomies/cats/terms', { label: 'Local', parentId: parent.id });
    const flat = await call(cms, 'PUT', '/taxonomies/cats', { token: cms.adminToken, body: { hierarchical: false } });
    expect(flat.status).toBe(400);
    expect(flat.body.error.details.issues[0].path).toEqual(['hierarchical']);
    await ok(cms, 'PUT', `/taxonomies/cats/terms/${child.slug}`, { parentId: null });
    expect((await ok(cms, 'PUT', '/taxonomies/cats', { hierarchical: false })).hierarchical).toBe(false);
  });

  it('lists taxonomies with cursor pages and validates names and bodies', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    for (const name of ['a1', 'b2', 'c3']) await taxonomy(cms, { name, label: name.toUpperCase() });
    await taxonomy(cms, { name: 'd4', label: 'Vier', locale: 'de' });
    const first = await ok(cms, 'GET', '/taxonomies?limit=2');
    expect(first.items.map((t: any) => t.name)).toEqual(['a1', 'b2']);
    const second = await ok(cms, 'GET', `/taxonomies?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((t: any) => [t.name, t.locale])).toEqual([
      ['c3', 'en'],
      ['d4', 'de'],
    ]);
    expect(second.nextCursor).toBeUndefined();
    const crafted = await call(cms, 'GET', `/taxonomies?cursor=${Buffer.from('[{"a":1}]').toString('base64url')}`, {
      token: cms.adminToken,
    });
    expect(crafted.status).toBe(400);
    expect(crafted.body.error.details.issues[0].path).toEqual(['cursor']);
    for (const body of [
      { name: 'Bad Name', label: 'x' },
      { name: 'ok', label: '   ' },
      { name: 'ok', label: 'nul\u0000' },
      { name: 'ok', label: 'lone \ud800 surrogate' },
      { name: 'ok', label: 'x', extra: true },
    ]) {
      const res = await call(cms, 'POST', '/taxonomies', { token: cms.adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.issues.length).toBeGreaterThan(0);
    }
  });
});

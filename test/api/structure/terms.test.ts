import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { I18N, ok, taxonomy, term } from './helpers.js';

describeEachDialect('terms', (dialect) => {
  it('creates terms with generated and explicit slugs, unique per taxonomy and locale', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    await taxonomy(cms, { name: 'tags', label: 'Tags' });
    await taxonomy(cms, { name: 'other', label: 'Other' });
    const a = await term(cms, 'tags', { label: 'Café Society' });
    expect(a).toMatchObject({
      slug: 'cafe-society',
      locale: 'en',
      parentId: null,
      position: 0,
      count: 0,
      childCount: 0,
    });
    const b = await term(cms, 'tags', { label: 'Café Society' });
    expect(b.slug).toBe('cafe-society-2');
    expect(b.position).toBe(1);
    const taken = await call(cms, 'POST', '/taxonomies/tags/terms', {
      token: cms.adminToken,
      body: { label: 'X', slug: 'cafe-society' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('ALREADY_EXISTS');
    // Same slug in another taxonomy or another locale is fine.
    await term(cms, 'other', { label: 'X', slug: 'cafe-society' });
    await term(cms, 'tags', { label: 'X', slug: 'cafe-society', locale: 'fr' });
    const bad = await call(cms, 'POST', '/taxonomies/tags/terms', {
      token: cms.adminToken,
      body: { label: 'X', slug: 'has space' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].path).toEqual(['slug']);
    expect((await ok(cms, 'GET', '/taxonomies/tags/terms/cafe-society-2')).id).toBe(b.id);
    expect((await ok(cms, 'GET', `/taxonomies/tags/terms/${b.id}`)).slug).toBe('cafe-society-2');
    expect((await call(cms, 'GET', '/taxonomies/tags/terms/nope', { token: cms.adminToken })).status).toBe(404);
    expect((await call(cms, 'GET', '/taxonomies/nope/terms', { token: cms.adminToken })).status).toBe(404);
  });

  it('parents: same taxonomy, no cycles, none in a flat taxonomy (MCP rule 8)', async () => {
    const cms = await testCms(dialect);
    await taxonomy(cms, { name: 'cats', label: 'Categories', hierarchical: true });
    await taxonomy(cms, { name: 'tags', label: 'Tags' });
    const news = await term(cms, 'cats', { label: 'News' });
    const local = await term(cms, 'cats', { label: 'Local', parentId: news.id });
    const city = await term(cms, 'cats', { label: 'City', parentId: local.id });
    expect(local).toMatchObject({ parentId: news.id, parentGroup: news.translationGroup, position: 0 });
    const tag = await term(cms, 'tags', { label: 'Tag' });

    const flat = await call(cms, 'POST', '/taxonomies/tags/terms', {
      token: cms.adminToken,
      body: { label: 'Child', parentId: tag.id },
    });
    expect(flat.status).toBe(400);
    expect(flat.body.error.details.issues[0]).toMatchObject({ path: ['parentId'], code: 'not_hierarchical' });
    const foreign = await call(cms, 'POST', '/taxonomies/cats/terms', {
      token: cms.adminToken,
      body: { label: 'Child', parentId: tag.id },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details.issues[0].code).toBe('not_found');
    for (const parentId of [news.id, city.id]) {
      // news below its grandchild, or below itself through the chain: a cycle.
      const cycle = await call(cms, 'PUT', `/taxonomies/cats/terms/${parentId === news.id ? 'news' : 'local'}`, {
        token: cms.adminToken,
        body: { parentId: parentId === news.id ? city.id : city.id },
      });
      expect(cycle.status).toBe(400);
      expect(cycle.body.error.details.issues[0].code).toBe('cycle');
    }
    const self = await call(cms, 'PUT', '/taxonomies/cats/terms/news', {
      token: cms.adminToken,
      body: { parentId: news.id },
    });
    expect(self.body.error.details.issues[0].code).toBe('cycle');

    // Moving goes last among the new siblings; children follow their parent.
    const other = await term(cms, 'cats', { label: 'Sport' });
    const moved = await ok(cms, 'PUT', '/taxonomies/cats/terms/local', { parentId: other.id });
    expect(moved).toMatchObject({ parentId: other.id, position: 0 });
    expect((await ok(cms, 'GET', '/taxonomies/cats/terms/city')).parentId).toBe(local.id);
    const top = await ok(cms, 'PUT', '/taxonomies/cats/terms/local', { parentId: null });
    expect(top).toMatchObject({ parentId: null, position: 2 });
  });

  it('a term with children cannot be deleted until they are moved or removed', async () => {
    const cms = await testCms(dialect);
    await taxonomy(cms, { name: 'cats', label: 'Categories', hierarchical: true });
    const news = await term(cms, 'cats', { label: 'News' });
    await term(cms, 'cats', { label: 'Local', parentId: news.id });
    const refused = await call(cms, 'DELETE', '/taxonomies/cats/terms/news', { token: cms.adminToken });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.child).toBe('local');
    expect((await ok(cms, 'GET', '/taxonomies/cats/terms/news')).childCount).toBe(1);
    await ok(cms, 'DELETE', '/taxonomies/cats/terms/local');
    expect(await ok(cms, 'DELETE', '/taxonomies/cats/terms/news')).toMatchObject({ deleted: true, slug: 'news' });
    expect((await call(cms, 'GET', '/taxonomies/cats/terms/news', { token: cms.adminToken })).status).toBe(404);
  });

  it('reorder exchanges the positions of the listed siblings: [A,B,C] with [C,A] gives [C,B,A] (rule 6)', async () => {
    const cms = await testCms(dialect);
    await taxonomy(cms, { name: 'cats', label: 'Categories', hierarchical: true });
    const root = await term(cms, 'cats', { label: 'Root' });
    const A = await term(cms, 'cats', { label: 'A', parentId: root.id });
    const B = await term(cms, 'cats', { label: 'B', parentId: root.id });
    const C = await term(cms, 'cats', { label: 'C', parentId: root.id });
    const res = await ok(cms, 'POST', '/taxonomies/cats/reorder', { ids: [C.id, A.id] });
    expect(res.items.map((t: any) => t.slug)).toEqual(['c', 'a']);
    const children = await ok(cms, 'GET', `/taxonomies/cats/terms?parent=${root.id}`);
    expect(children.items.map((t: any) => t.label)).toEqual(['C', 'B', 'A']);
    expect(children.items.every((t: any) => t.parentId === root.id)).toBe(true);
    // B kept its place; the positions are still a permutation of the old ones.
    expect(children.items.map((t: any) => t.position)).toEqual([0, 1, 2]);
    expect(children.items[1].id).toBe(B.id);

    const notSiblings = await call(cms, 'POST', '/taxonomies/cats/reorder', {
      token: cms.adminToken,
      body: { ids: [A.id, root.id] },
    });
    expect(notSiblings.status).toBe(400);
    expect(notSiblings.body.error.details.issues[0]).toMatchObject({ path: ['ids', 1], code: 'not_sibling' });
    const unknown = await call(cms, 'POST', '/taxonomies/cats/reorder', {
      token: cms.adminToken,
      body: { ids: [A.id, '01ARZ3NDEKTSV4RRFFQ69G5FAV'] },
    });
    expect(unknown.body.error.details.issues[0].path).toEqual(['ids', 1]);
    const twice = await call(cms, 'POST', '/taxonomies/cats/reorder', {
      token: cms.adminToken,
      body: { ids: [A.id, A.id] },
    });
    expect(twice.body.error.details.issues[0].code).toBe('duplicate');
    const empty = await call(cms, 'POST', '/taxonomies/cats/reorder', { token: cms.adminToken, body: { ids: [] } });
    expect(empty.status).toBe(400);
  });

  it('concurrent reorders of one sibling group leave a whole permutation', async () => {
    const cms = await testCms(dialect);
    await taxonomy(cms, { name: 'tags', label: 'Tags' });
    const terms = [];
    for (let i = 0; i < 6; i++) terms.push(await term(cms, 'tags', { label: `T${i}` }));
    const ids = terms.map((t) => t.id);
    const orders = [
      [ids[5], ids[0]],
      [ids[1], ids[4], ids[2]],
      [ids[3], ids[5]],
      [ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]].reverse(),
      [ids[2], ids[0]],
      [ids[4], ids[3], ids[1]],
    ];
    const results = await Promise.all(
      orders.map((o) => call(cms, 'POST', '/taxonomies/tags/reorder', { token: cms.adminToken, body: { ids: o } })),
    );
    expect(results.map((r) => r.status)).toEqual(orders.map(() => 200));
    const list = await ok(cms, 'GET', '/taxonomies/tags/terms');
    expect(list.items).toHaveLength(6);
    expect(new Set(list.items.map((t: any) => t.id))).toEqual(new Set(ids));
    expect(list.items.map((t: any) => t.position).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('one order and one parent per translation group, across three locales', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    await taxonomy(cms, { name: 'cats', label: 'Categories', hierarchical: true });
    const news = await term(cms, 'cats', { label: 'News' });
    const sport = await term(cms, 'cats', { label: 'Sport' });
    const local = await term(cms, 'cats', { label: 'Local', parentId: news.id });
    // A child cannot be translated before its parent.
    const early = await call(cms, 'POST', '/taxonomies/cats/terms', {
      token: cms.adminToken,
      body: { label: 'Lokal', locale: 'de', translationOf: local.id },
    });
    expect(early.status).toBe(400);
    expect(early.body.error.details.issues[0]).toMatchObject({ path: ['translationOf'], code: 'parent_untranslated' });
    const newsDe = await term(cms, 'cats', { label: 'Nachrichten', locale: 'de', translationOf: news.id });
    const sportDe = await term(cms, 'cats', { label: 'Sport', locale: 'de', translationOf: sport.id });
    const localDe = await term(cms, 'cats', { label: 'Lokal', locale: 'de', translationOf: local.id });
    const newsFr = await term(cms, 'cats', { label: 'Actualités', locale: 'fr', translationOf: newsDe.id });
    expect(newsDe.translationGroup).toBe(news.translationGroup);
    expect(newsFr.translationGroup).toBe(news.translationGroup);
    expect(localDe).toMatchObject({ parentId: newsDe.id, parentGroup: news.translationGroup });
    const dup = await call(cms, 'POST', '/taxonomies/cats/terms', {
      token: cms.adminToken,
      body: { label: 'Encore', locale: 'fr', translationOf: news.id },
    });
    expect(dup.status).toBe(409);

    // Reordering in one locale reorders every locale.
    await ok(cms, 'POST', '/taxonomies/cats/reorder', { ids: [sportDe.id, newsDe.id] });
    for (const locale of ['en', 'de']) {
      const top = await ok(cms, 'GET', `/taxonomies/cats/terms?parent=root&locale=${locale}`);
      expect(top.items.map((t: any) => t.translationGroup)).toEqual([sport.translationGroup, news.translationGroup]);
    }
    // Moving the en term moves its de translation; a parent missing in fr blocks moving a term that exists in fr.
    await ok(cms, 'PUT', '/taxonomies/cats/terms/local', { parentId: sport.id });
    expect((await ok(cms, 'GET', '/taxonomies/cats/terms/lokal?locale=de')).parentId).toBe(sportDe.id);
    const sportFr = await call(cms, 'PUT', '/taxonomies/cats/terms/actualites?locale=fr', {
      token: cms.adminToken,
      body: { parentId: sport.id },
    });
    expect(sportFr.status).toBe(400);
    expect(sportFr.body.error.details.issues[0].code).toBe('parent_untranslated');

    // The admin reads a term's translations on a route outside the documented contract (MCP: taxonomy_term_translations).
    const translations = await ok(cms, 'GET', `/term-translations/${news.translationGroup}`);
    expect(translations.items.map((t: any) => [t.locale, t.id])).toEqual([
      ['de', newsDe.id],
      ['en', news.id],
      ['fr', newsFr.id],
    ]);
    // Deleting one locale keeps the others.
    await ok(cms, 'DELETE', '/taxonomies/cats/terms/actualites?locale=fr');
    expect((await ok(cms, 'GET', '/taxonomies/cats/terms/news')).id).toBe(news.id);
  });

  it('lists terms in order with cursor pages, parent filters and search', async () => {
    const cms = await testCms(dialect);
    await taxonomy(cms, { name: 'cats', label: 'Categories', hierarchical: true });
    const parent = await term(cms, 'cats', { label: 'Parent' });
    for (let i = 0; i < 5; i++) await term(cms, 'cats', { label: `Child ${i}`, parentId: parent.id });
    await term(cms, 'cats', { label: '100% Organic_Food' });
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ok(cms, 'GET', `/taxonomies/cats/terms?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...page.items.map((t: any) => t.slug));
      cursor = page.nextCursor;
    } while (cursor);
    expect(all).toHaveLength(7);
    expect(new Set(all).size).toBe(7);
    const root = await ok(cms, 'GET', '/taxonomies/cats/terms?parent=root');
    expect(root.items.map((t: any) => t.slug)).toEqual(['parent', '100-organic-food']);
    expect(root.items[0].childCount).toBe(5);
    const kids = await ok(cms, 'GET', '/taxonomies/cats/terms?parent=parent&limit=2');
    expect(kids.items.map((t: any) => t.slug)).toEqual(['child-0', 'child-1']);
    // LIKE wildcards in a search are literal.
    expect((await ok(cms, 'GET', '/taxonomies/cats/terms?search=%25')).items.map((t: any) => t.slug)).toEqual([
      '100-organic-food',
    ]);
    expect((await ok(cms, 'GET', '/taxonomies/cats/terms?search=_food')).items).toHaveLength(1);
    expect((await ok(cms, 'GET', '/taxonomies/cats/terms?search=CHILD%203')).items).toHaveLength(1);
    const nul = await call(cms, 'GET', '/taxonomies/cats/terms?search=a%00b', { token: cms.adminToken });
    expect(nul.status).toBe(400);
  });

  it('deleting a taxonomy removes every locale, its terms and their assignments, never entries (rule 5)', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug: 'posts', label: 'Posts', fields: [{ slug: 'title', label: 'Title', type: 'string' }] },
    });
    await taxonomy(cms, { name: 'tags', label: 'Tags', collections: ['posts'] });
    await taxonomy(cms, { name: 'tags', label: 'Étiquettes', locale: 'fr' });
    const t = await term(cms, 'tags', { label: 'One' });
    const entry = (await ok(cms, 'POST', '/content/posts', { data: { title: 'Hello' } })).item;
    await ok(cms, 'POST', `/content/posts/${entry.id}/terms/tags`, { terms: [t.id] });
    expect(await ok(cms, 'DELETE', '/taxonomies/tags')).toEqual({ deleted: true, name: 'tags' });
    for (const locale of ['en', 'fr']) {
      expect((await call(cms, 'GET', `/taxonomies/tags?locale=${locale}`, { token: cms.adminToken })).status).toBe(404);
    }
    expect((await ok(cms, 'GET', `/content/posts/${entry.id}`)).item.id).toBe(entry.id);
    const db = cms.database.db;
    expect(await db.selectFrom('_cms_terms').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('_cms_content_terms').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('_cms_taxonomy_defs').selectAll().execute()).toEqual([]);
    // The name is free again, with new values.
    expect((await taxonomy(cms, { name: 'tags', label: 'Tags', hierarchical: true })).hierarchical).toBe(true);
  });

  it('leaves records in unconfigured locales unchanged and reports them once in the log (rule 6)', async () => {
    const cms = await testCms(dialect, { config: { i18n: I18N } });
    await taxonomy(cms, { name: 'tags', label: 'Tags' });
    const t = await term(cms, 'tags', { label: 'One' });
    const now = new Date().toISOString();
    // Rows written while the configuration listed `it` (the site has since dropped it).
    await cms.database.db
      .insertInto('_cms_taxonomy_defs')
      .values({
        id: '01JZZZZZZZZZZZZZZZZZZZZZZZ',
        taxonomy: 'tags',
        locale: 'it',
        label: 'Etichette',
        label_singular: 'Etichetta',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await cms.database.db
      .insertInto('_cms_terms')
      .values({
        id: '01JZZZZZZZZZZZZZZZZZZZZZZY',
        taxonomy: 'tags',
        locale: 'it',
        translation_group: t.translationGroup,
        slug: 'uno',
        label: 'Uno',
        description: null,
        parent_group: null,
        position: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const warnings: Array<[unknown, string]> = [];
    const log = cms.ctx.log as unknown as { warn: (o: unknown, m: string) => void };
    log.warn = (o, m) => warnings.push([o, m]);
    const list = await ok(cms, 'GET', '/taxonomies');
    expect(list.items[0].locales).toEqual(['en']);
    await ok(cms, 'GET', '/taxonomies');
    expect(warnings).toHaveLength(1);
    expect(warnings[0][0]).toMatchObject({ taxonomyDefinitions: { it: 1 }, terms: { it: 1 } });
    expect((await ok(cms, 'GET', '/taxonomies/tags/translations')).items.map((d: any) => d.locale)).toEqual(['en']);
    expect((await ok(cms, 'GET', `/taxonomies/tags/terms/${t.id}`)).slug).toBe('one');
    const stored = await cms.database.db.selectFrom('_cms_terms').select('label').where('locale', '=', 'it').execute();
    expect(stored).toEqual([{ label: 'Uno' }]);
  });
});

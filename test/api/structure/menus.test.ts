import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { I18N, ok, taxonomy, term } from './helpers.js';

async function site(dialect: 'sqlite' | 'postgres') {
  const cms = await testCms(dialect, { config: { i18n: I18N } });
  await postsCollection(cms);
  const about = (await createEntry(cms, { data: { title: 'About us' } })).item;
  await publish(cms, about.id);
  const aboutFr = (await createEntry(cms, { data: { title: 'À propos' }, locale: 'fr', translationOf: about.id })).item;
  await taxonomy(cms, { name: 'tags', label: 'Tags', collections: ['posts'] });
  const news = await term(cms, 'tags', { label: 'News' });
  await term(cms, 'tags', { label: 'Actualités', locale: 'fr', translationOf: news.id });
  const menu = await ok(cms, 'POST', '/menus', { name: 'main', label: 'Main menu' });
  return { cms, about, aboutFr, news, menu };
}

const item = (cms: TestCms, body: Record<string, unknown>, query = '') =>
  ok(cms, 'POST', `/menus/main/items${query}`, body);

describeEachDialect('menus', (dialect) => {
  it('holds nested items pointing at entries, terms and URLs, resolved to the reader', async () => {
    const { cms, about, news, menu } = await site(dialect);
    expect(menu).toMatchObject({ name: 'main', locale: 'en', itemCount: 0, items: [] });
    const home = await item(cms, { kind: 'url', url: '/', label: 'Home' });
    const aboutItem = await item(cms, { kind: 'content', collection: 'posts', entryId: about.id });
    expect(aboutItem).toMatchObject({
      label: 'About us',
      customLabel: null,
      target: { collection: 'posts', id: about.id, title: 'About us', locale: 'en', status: 'published' },
    });
    const newsItem = await item(cms, { kind: 'term', termId: news.id, label: 'Latest', parentId: aboutItem.id });
    expect(newsItem).toMatchObject({
      label: 'Latest',
      parentId: aboutItem.id,
      depth: 1,
      target: { taxonomy: 'tags', slug: 'news' },
    });
    await item(cms, { kind: 'url', url: 'https://example.com/shop', label: 'Shop', openInNewTab: true });
    const got = await ok(cms, 'GET', '/menus/main');
    expect(got.items.map((i: any) => [i.label, i.depth])).toEqual([
      ['Home', 0],
      ['About us', 0],
      ['Latest', 1],
      ['Shop', 0],
    ]);
    expect(got.items[3]).toMatchObject({ url: 'https://example.com/shop', openInNewTab: true, target: null });
    expect(home.kind).toBe('url');
    const list = await ok(cms, 'GET', '/menus');
    expect(list.items).toEqual([expect.objectContaining({ name: 'main', itemCount: 4 })]);
  });

  it('refuses unsafe URLs and incomplete or mixed targets, naming the field', async () => {
    const { cms, about } = await site(dialect);
    for (const [body, path] of [
      [{ kind: 'url', url: 'javascript:alert(1)', label: 'x' }, 'url'],
      [{ kind: 'url', url: '//evil.example', label: 'x' }, 'url'],
      [{ kind: 'url', url: 'java\tscript:alert(1)', label: 'x' }, 'url'],
      [{ kind: 'url', url: '/ok' }, 'label'],
      [{ kind: 'content', collection: 'posts' }, 'entryId'],
      [{ kind: 'content', collection: 'nope', entryId: about.id }, 'collection'],
      [{ kind: 'term', termId: 'nope' }, 'termId'],
      [{ kind: 'url', url: '/ok', label: 'x', termId: 'y' }, 'termId'],
      [{ kind: 'url', url: '/ok', label: 'x\u0000' }, 'label'],
    ] as const) {
      const res = await call(cms, 'POST', '/menus/main/items', { token: cms.adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.issues[0].path, JSON.stringify(body)).toEqual([path]);
    }
    expect((await ok(cms, 'GET', '/menus/main')).items).toEqual([]);
  });

  it('hides items whose target is not published from readers without draft access, lifting their children', async () => {
    const { cms } = await site(dialect);
    const draft = (await createEntry(cms, { data: { title: 'Coming soon' } })).item;
    const parent = await item(cms, { kind: 'content', collection: 'posts', entryId: draft.id });
    await item(cms, { kind: 'url', url: '/child', label: 'Child', parentId: parent.id });
    await item(cms, { kind: 'url', url: '/after', label: 'After' });
    const { token } = await cms.userToken(ROLES.SUBSCRIBER);
    const reader = await ok(cms, 'GET', '/menus/main', undefined, token);
    expect(reader.items.map((i: any) => [i.label, i.depth, i.parentId])).toEqual([
      ['Child', 0, null],
      ['After', 0, null],
    ]);
    const editor = await ok(cms, 'GET', '/menus/main');
    expect(editor.items[0]).toMatchObject({ label: 'Coming soon', target: { status: 'draft' } });
    await publish(cms, draft.id);
    expect((await ok(cms, 'GET', '/menus/main', undefined, token)).items.map((i: any) => i.label)).toEqual([
      'Coming soon',
      'Child',
      'After',
    ]);
  });

  it('resolves content and terms to the reader locale and falls back to the default-locale menu', async () => {
    const { cms, about, aboutFr, news } = await site(dialect);
    await item(cms, { kind: 'content', collection: 'posts', entryId: about.id });
    await item(cms, { kind: 'term', termId: news.id });
    // No fr menu: the en one is shown, its targets in fr where they are published, else en.
    const { token } = await cms.userToken(ROLES.SUBSCRIBER);
    const frReader = await ok(cms, 'GET', '/menus/main?locale=fr', undefined, token);
    expect(frReader.locale).toBe('en');
    expect(frReader.items.map((i: any) => [i.label, i.target.locale])).toEqual([
      ['About us', 'en'],
      ['Actualités', 'fr'],
    ]);
    await publish(cms, aboutFr.id);
    const after = await ok(cms, 'GET', '/menus/main?locale=fr', undefined, token);
    expect(after.items[0]).toMatchObject({ label: 'À propos', target: { id: aboutFr.id, locale: 'fr' } });
    // de has no fallback configured: de → en.
    expect((await ok(cms, 'GET', '/menus/main?locale=de', undefined, token)).items[0].label).toBe('About us');
  });

  it('translating a menu clones its items with their references intact', async () => {
    const { cms, about, aboutFr, news, menu } = await site(dialect);
    const parent = await item(cms, { kind: 'content', collection: 'posts', entryId: about.id, label: 'Company' });
    await item(cms, { kind: 'term', termId: news.id, parentId: parent.id });
    await publish(cms, aboutFr.id);
    const fr = await ok(cms, 'POST', '/menus', { translationOf: menu.id, label: 'Menu principal', locale: 'fr' });
    expect(fr).toMatchObject({ name: 'main', locale: 'fr', translationGroup: menu.translationGroup, itemCount: 2 });
    const [p, c] = fr.items;
    expect(p).toMatchObject({
      customLabel: 'Company',
      targetGroup: about.translationGroup,
      target: { id: aboutFr.id },
    });
    expect(c).toMatchObject({ parentId: p.id, depth: 1, label: 'Actualités', targetGroup: news.translationGroup });
    expect(p.id).not.toBe(parent.id);
    const translations = await ok(cms, 'GET', `/menu-translations/${fr.id}`);
    expect(translations.items.map((m: any) => [m.locale, m.itemCount])).toEqual([
      ['en', 2],
      ['fr', 2],
    ]);
    // The copies are independent.
    await ok(cms, 'DELETE', `/menus/main/items/${p.id}?locale=fr`);
    expect((await ok(cms, 'GET', '/menus/main')).items).toHaveLength(2);
    const again = await call(cms, 'POST', '/menus', {
      token: cms.adminToken,
      body: { translationOf: menu.id, label: 'Encore', locale: 'fr' },
    });
    expect(again.status).toBe(409);
    const dup = await call(cms, 'POST', '/menus', { token: cms.adminToken, body: { name: 'main', label: 'Dup' } });
    expect(dup.status).toBe(409);
    // Deleting one locale's menu keeps the other.
    await ok(cms, 'DELETE', '/menus/main?locale=fr');
    expect((await ok(cms, 'GET', '/menus/main')).itemCount).toBe(2);
    expect((await call(cms, 'GET', '/menus/main?locale=fr', { token: cms.adminToken })).body.data.locale).toBe('en');
  });

  it('moves, relabels, retargets and deletes items; children of a deleted item move up', async () => {
    const { cms, about, news } = await site(dialect);
    const a = await item(cms, { kind: 'url', url: '/a', label: 'A' });
    const b = await item(cms, { kind: 'url', url: '/b', label: 'B', parentId: a.id });
    const c = await item(cms, { kind: 'url', url: '/c', label: 'C', parentId: b.id });
    const cycle = await call(cms, 'PUT', `/menus/main/items/${a.id}`, {
      token: cms.adminToken,
      body: { parentId: c.id },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.details.issues[0].code).toBe('cycle');
    const moved = await ok(cms, 'PUT', `/menus/main/items/${c.id}`, { parentId: null, label: 'C!' });
    expect(moved).toMatchObject({ parentId: null, depth: 0, label: 'C!' });
    const retargeted = await ok(cms, 'PUT', `/menus/main/items/${b.id}`, {
      kind: 'content',
      collection: 'posts',
      entryId: about.id,
      label: null,
    });
    expect(retargeted).toMatchObject({ kind: 'content', url: null, label: 'About us', parentId: a.id });
    await ok(cms, 'PUT', `/menus/main/items/${b.id}`, { kind: 'term', termId: news.id });
    const noLabel = await call(cms, 'PUT', `/menus/main/items/${a.id}`, {
      token: cms.adminToken,
      body: { label: null },
    });
    expect(noLabel.status).toBe(400);
    await ok(cms, 'DELETE', `/menus/main/items/${a.id}`);
    const after = await ok(cms, 'GET', '/menus/main');
    expect(after.items.map((i: any) => [i.label, i.depth])).toEqual([
      ['News', 0],
      ['C!', 0],
    ]);
    expect((await call(cms, 'DELETE', `/menus/main/items/${a.id}`, { token: cms.adminToken })).status).toBe(404);
  });

  it('batch reorder takes every item; a stale or looping list changes nothing', async () => {
    const { cms } = await site(dialect);
    const [a, b, c] = [
      await item(cms, { kind: 'url', url: '/a', label: 'A' }),
      await item(cms, { kind: 'url', url: '/b', label: 'B' }),
      await item(cms, { kind: 'url', url: '/c', label: 'C' }),
    ];
    const done = await ok(cms, 'POST', '/menus/main/reorder', {
      items: [
        { id: c.id, parentId: null },
        { id: a.id, parentId: c.id },
        { id: b.id, parentId: null },
      ],
    });
    expect(done.items.map((i: any) => [i.label, i.depth])).toEqual([
      ['C', 0],
      ['A', 1],
      ['B', 0],
    ]);
    const stale = await call(cms, 'POST', '/menus/main/reorder', {
      token: cms.adminToken,
      body: { items: [{ id: a.id, parentId: null }] },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.details.missing.sort()).toEqual([b.id, c.id].sort());
    const loop = await call(cms, 'POST', '/menus/main/reorder', {
      token: cms.adminToken,
      body: {
        items: [
          { id: a.id, parentId: b.id },
          { id: b.id, parentId: a.id },
          { id: c.id, parentId: null },
        ],
      },
    });
    expect(loop.status).toBe(400);
    expect(loop.body.error.details.issues[0].code).toBe('cycle');
    expect((await ok(cms, 'GET', '/menus/main')).items.map((i: any) => i.label)).toEqual(['C', 'A', 'B']);
  });

  it('limits nesting depth', async () => {
    const { cms } = await site(dialect);
    let parentId: string | null = null;
    for (let depth = 0; depth < 8; depth++) {
      parentId = (await item(cms, { kind: 'url', url: `/${depth}`, label: `L${depth}`, parentId })).id;
    }
    const tooDeep = await call(cms, 'POST', '/menus/main/items', {
      token: cms.adminToken,
      body: { kind: 'url', url: '/9', label: 'L9', parentId },
    });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.error.details.issues[0].code).toBe('too_deep');
  });

  it('drops items whose entry group or term is deleted for good; their children move up', async () => {
    const { cms, about, aboutFr, news } = await site(dialect);
    const parent = await item(cms, { kind: 'content', collection: 'posts', entryId: about.id });
    await item(cms, { kind: 'url', url: '/kid', label: 'Kid', parentId: parent.id });
    await item(cms, { kind: 'term', termId: news.id });
    const gone = async (id: string) => {
      await ok(cms, 'DELETE', `/content/posts/${id}`);
      await ok(cms, 'DELETE', `/content/posts/${id}/permanent`);
    };
    await gone(about.id);
    expect((await ok(cms, 'GET', '/menus/main')).items).toHaveLength(3);
    await gone(aboutFr.id);
    expect((await ok(cms, 'GET', '/menus/main')).items.map((i: any) => [i.label, i.depth])).toEqual([
      ['Kid', 0],
      ['News', 0],
    ]);
    await ok(cms, 'DELETE', '/taxonomies/tags/terms/actualites?locale=fr');
    await ok(cms, 'DELETE', '/taxonomies/tags/terms/news');
    expect((await ok(cms, 'GET', '/menus/main')).items.map((i: any) => i.label)).toEqual(['Kid']);
  });

  it('renames menus, pages the list, and 404s unknown menus and locales', async () => {
    const { cms } = await site(dialect);
    await ok(cms, 'POST', '/menus', { name: 'footer', label: 'Footer' });
    await ok(cms, 'POST', '/menus', { name: 'social', label: 'Social' });
    const page1 = await ok(cms, 'GET', '/menus?limit=2');
    expect(page1.items.map((m: any) => m.name)).toEqual(['footer', 'main']);
    const page2 = await ok(cms, 'GET', `/menus?limit=2&cursor=${page1.nextCursor}`);
    expect(page2.items.map((m: any) => m.name)).toEqual(['social']);
    const renamed = await ok(cms, 'PUT', '/menus/social', { name: 'links', label: 'Links' });
    expect(renamed).toMatchObject({ name: 'links', label: 'Links' });
    const clash = await call(cms, 'PUT', '/menus/links', { token: cms.adminToken, body: { name: 'main' } });
    expect(clash.status).toBe(409);
    expect((await call(cms, 'GET', '/menus/social', { token: cms.adminToken })).status).toBe(404);
    expect((await call(cms, 'GET', '/menus/main?locale=xx', { token: cms.adminToken })).status).toBe(400);
    expect(
      (await call(cms, 'PUT', '/menus/main?locale=fr', { token: cms.adminToken, body: { label: 'x' } })).status,
    ).toBe(404);
  });
});

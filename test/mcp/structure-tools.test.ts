import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { call, testCms } from '../helpers/cms.js';
import { postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';

const i18n = { locales: ['de', 'en', 'fr'], defaultLocale: 'en', fallback: { fr: 'en' } };

describeEachDialect('MCP taxonomy, menu and settings tools', (dialect) => {
  it('manages taxonomies and terms, with term translations', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await postsCollection(cms);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const en = await mcp.ok('taxonomy_create', {
      name: 'cats',
      label: 'Categories',
      hierarchical: true,
      collections: ['posts'],
    });
    await mcp.ok('taxonomy_create', { name: 'cats', label: 'Catégories', locale: 'fr', translationOf: en.id });
    expect((await mcp.ok('taxonomy_get', { name: 'cats', locale: 'fr' })).label).toBe('Catégories');
    expect((await mcp.ok('taxonomy_list')).items.map((t: any) => t.name)).toEqual(['cats']);
    expect((await mcp.ok('taxonomy_update', { name: 'cats', labelSingular: 'Category' })).labelSingular).toBe(
      'Category',
    );
    const news = await mcp.ok('taxonomy_create_term', { taxonomy: 'cats', label: 'News' });
    const local = await mcp.ok('taxonomy_create_term', { taxonomy: 'cats', label: 'Local', parentId: news.id });
    expect(local.parentId).toBe(news.id);
    const fr = await mcp.ok('taxonomy_create_term', {
      taxonomy: 'cats',
      label: 'Actualités',
      locale: 'fr',
      translationOf: news.id,
    });
    const translations = await mcp.ok('taxonomy_term_translations', { id: news.translationGroup });
    expect(translations.items.map((t: any) => [t.locale, t.id])).toEqual([
      ['en', news.id],
      ['fr', fr.id],
    ]);
    expect((await mcp.ok('taxonomy_term_translations', { id: fr.id })).translationGroup).toBe(news.translationGroup);
    const renamed = await mcp.ok('taxonomy_update_term', {
      taxonomy: 'cats',
      slug: 'local',
      newSlug: 'city',
      label: 'City',
    });
    expect(renamed).toMatchObject({ slug: 'city', label: 'City', parentId: news.id });
    const list = await mcp.ok('taxonomy_list_terms', { taxonomy: 'cats', parent: 'root' });
    expect(list.items.map((t: any) => [t.slug, t.childCount])).toEqual([['news', 1]]);
    const hasChildren = await mcp.call('taxonomy_delete_term', { taxonomy: 'cats', slug: 'news' });
    expect(hasChildren._meta?.code).toBe('CONFLICT');
    await mcp.ok('taxonomy_delete_term', { taxonomy: 'cats', slug: 'city' });
    await mcp.ok('taxonomy_delete_term', { taxonomy: 'cats', slug: 'news' });
    expect(await mcp.ok('taxonomy_delete', { name: 'cats' })).toEqual({ deleted: true, name: 'cats' });
    await mcp.close();
  });

  it('menu_set_items replaces the list atomically; a forward or self parentIndex changes nothing', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await postsCollection(cms);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const post = (await mcp.ok('content_create', { collection: 'posts', data: { title: 'About' } })).item;
    await mcp.ok('content_publish', { collection: 'posts', id: post.id });
    const menu = await mcp.ok('menu_create', { name: 'main', label: 'Main' });
    const set = await mcp.ok('menu_set_items', {
      name: 'main',
      items: [
        { kind: 'url', url: '/', label: 'Home' },
        { kind: 'content', collection: 'posts', entryId: post.id },
        { kind: 'url', url: '/team', label: 'Team', parentIndex: 1 },
      ],
    });
    expect(set.items.map((i: any) => [i.label, i.depth])).toEqual([
      ['Home', 0],
      ['About', 0],
      ['Team', 1],
    ]);
    for (const parentIndex of [2, 1]) {
      const bad = await mcp.call('menu_set_items', {
        name: 'main',
        items: [
          { kind: 'url', url: '/x', label: 'X' },
          { kind: 'url', url: '/y', label: 'Y', parentIndex },
          { kind: 'url', url: '/z', label: 'Z' },
        ],
      });
      expect(bad.isError).toBe(true);
      expect(bad._meta?.code).toBe('VALIDATION_ERROR');
      expect(bad._meta?.details.issues[0].path).toEqual(['items', 1, 'parentIndex']);
    }
    const unsafe = await mcp.call('menu_set_items', {
      name: 'main',
      items: [
        { kind: 'url', url: '/ok', label: 'OK' },
        { kind: 'url', url: 'javascript:alert(1)', label: 'Bad' },
      ],
    });
    expect(unsafe._meta?.details.issues[0].path).toEqual(['items', 1, 'url']);
    const after = await mcp.ok('menu_get', { name: 'main' });
    expect(after.items.map((i: any) => i.label)).toEqual(['Home', 'About', 'Team']);

    const fr = await mcp.ok('menu_create', { translationOf: menu.id, label: 'Principal', locale: 'fr' });
    expect(fr.items).toHaveLength(3);
    expect((await mcp.ok('menu_translations', { id: menu.id })).items.map((m: any) => m.locale)).toEqual(['en', 'fr']);
    expect((await mcp.ok('menu_list', { locale: 'fr' })).items).toEqual([expect.objectContaining({ itemCount: 3 })]);
    expect((await mcp.ok('menu_update', { name: 'main', locale: 'fr', newName: 'principal' })).name).toBe('principal');
    expect(await mcp.ok('menu_delete', { name: 'principal', locale: 'fr' })).toMatchObject({ deleted: true });
    await mcp.close();
  });

  it('reads and changes settings', async () => {
    const cms = await testCms(dialect);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    expect((await mcp.ok('settings_get')).timezone).toBe('UTC');
    const changed = await mcp.ok('settings_update', { title: 'Field Notes', seo: { description: 'Notes' } });
    expect(changed).toMatchObject({ title: 'Field Notes', seo: { description: 'Notes' } });
    await mcp.close();
  });

  it('content_create and content_update set terms in the entry’s transaction; a refused term write rolls the entry back', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await postsCollection(cms);
    const url = await serve(cms);
    const admin = await mcpClient(url, cms.adminToken);
    await admin.ok('taxonomy_create', { name: 'tags', label: 'Tags', collections: ['posts'] });
    await admin.ok('taxonomy_create_term', { taxonomy: 'tags', label: 'News' });
    await admin.ok('taxonomy_create_term', { taxonomy: 'tags', label: 'Sport' });
    const created = await admin.ok('content_create', {
      collection: 'posts',
      data: { title: 'Live' },
      terms: { tags: ['news'] },
    });
    expect(created.terms).toEqual({ tags: [expect.objectContaining({ slug: 'news' })] });
    await admin.ok('content_publish', { collection: 'posts', id: created.item.id });

    const contributor = await cms.userToken(ROLES.CONTRIBUTOR);
    const author = await cms.userToken(ROLES.AUTHOR);
    const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
    for (const { token } of [contributor, author]) {
      const mcp = await mcpClient(url, token);
      // Their own draft translation of the Admin's live entry: the text may change, the shared terms may not.
      const mine = await mcp.ok('content_create', {
        collection: 'posts',
        locale: token === contributor.token ? 'fr' : 'de',
        translationOf: created.item.id,
        data: { title: 'Mine' },
      });
      expect(mine.terms).toEqual({ tags: [expect.objectContaining({ slug: 'news' })] });
      const refused = await mcp.call('content_update', {
        collection: 'posts',
        id: mine.item.id,
        data: { title: 'Changed' },
        terms: { tags: ['sport'] },
      });
      expect(refused.isError).toBe(true);
      expect(refused._meta?.code).toBe('INSUFFICIENT_PERMISSIONS');
      expect(refused._meta?.details.entryId).not.toBe(mine.item.id);
      const reread = await mcp.ok('content_get', { collection: 'posts', id: mine.item.id });
      expect(reread.item.data.title).toBe('Mine');
      expect(reread.terms.tags.map((t: any) => t.slug)).toEqual(['news']);
      // A translation created with terms is refused as a whole.
      const withTerms = await mcp.call('content_create', {
        collection: 'posts',
        locale: 'de',
        translationOf: created.item.id,
        data: { title: 'Neu' },
        terms: { tags: [] },
      });
      expect(withTerms.isError).toBe(true);
      await mcp.close();
    }
    const sub = await mcpClient(url, subscriber.token);
    const subRes = await sub.call('content_update', { collection: 'posts', id: created.item.id, terms: { tags: [] } });
    expect(subRes._meta?.code).toBe('INSUFFICIENT_SCOPE');
    await sub.close();
    // An unknown term is a validation error and nothing is written.
    const bad = await admin.call('content_update', {
      collection: 'posts',
      id: created.item.id,
      data: { title: 'Renamed' },
      terms: { tags: ['nope'] },
    });
    expect(bad._meta?.details.issues[0].path).toEqual(['terms', 0]);
    expect((await admin.ok('content_get', { collection: 'posts', id: created.item.id })).item.data.title).toBe('Live');
    const retag = await admin.ok('content_update', {
      collection: 'posts',
      id: created.item.id,
      terms: { tags: ['sport', 'news'] },
    });
    expect(retag.terms.tags.map((t: any) => t.slug)).toEqual(['sport', 'news']);
    await admin.close();
  });

  it('checks scope first, then role, on every structure tool', async () => {
    const cms = await testCms(dialect);
    await call(cms, 'POST', '/taxonomies', { token: cms.adminToken, body: { name: 'tags', label: 'Tags' } });
    const url = await serve(cms);
    const writes: Array<[string, Record<string, unknown>, string]> = [
      ['taxonomy_create', { name: 'x', label: 'X' }, 'taxonomies:manage'],
      ['taxonomy_create_term', { taxonomy: 'tags', label: 'X' }, 'taxonomies:manage'],
      ['menu_create', { name: 'x', label: 'X' }, 'menus:manage'],
      ['settings_update', { title: 'X' }, 'settings:manage'],
    ];
    for (const role of [ROLES.SUBSCRIBER, ROLES.CONTRIBUTOR, ROLES.AUTHOR]) {
      const mcp = await mcpClient(url, (await cms.userToken(role)).token);
      expect((await mcp.call('taxonomy_list')).isError).toBeFalsy();
      expect((await mcp.call('menu_list')).isError).toBeFalsy();
      for (const [name, args] of writes) {
        const res = await mcp.call(name, args);
        expect(res._meta?.code, `${role} ${name}`).toMatch(/^INSUFFICIENT_(SCOPE|PERMISSIONS)$/);
      }
      await mcp.close();
    }
    // An Editor with only content:read: the scope gate answers first.
    const readOnly = await mcpClient(url, (await cms.userToken(ROLES.EDITOR, ['content:read'])).token);
    for (const [name, args] of writes) expect((await readOnly.call(name, args))._meta?.code).toBe('INSUFFICIENT_SCOPE');
    await readOnly.close();
    // content:write covers taxonomies and menus; the Editor role cannot change settings.
    const writer = await mcpClient(url, (await cms.userToken(ROLES.EDITOR, ['content:write'])).token);
    expect((await writer.call('taxonomy_create', { name: 'y', label: 'Y' })).isError).toBeFalsy();
    expect((await writer.call('menu_create', { name: 'y', label: 'Y' })).isError).toBeFalsy();
    expect((await writer.call('settings_get'))._meta?.code).toBe('INSUFFICIENT_SCOPE');
    await writer.close();
    const editor = await mcpClient(url, (await cms.userToken(ROLES.EDITOR)).token);
    expect((await editor.call('settings_get')).isError).toBeFalsy();
    // Editors never get settings:manage on a token (the role lacks it), so the scope gate refuses.
    expect((await editor.call('settings_update', { title: 'X' }))._meta?.code).toBe('INSUFFICIENT_SCOPE');
    await editor.close();
  });
});

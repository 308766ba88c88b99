import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { call, testCms } from '../helpers/cms.js';
import { postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';

describeEachDialect('MCP content and revision tools', (dialect) => {
  it('walks an entry through its whole lifecycle with _rev', async () => {
    const cms = await testCms(dialect, { config: { i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } } });
    await postsCollection(cms);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);

    const created = await mcp.call('content_create', { collection: 'posts', data: { title: 'Hello' } });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent.item).toMatchObject({ slug: 'hello', status: 'draft' });
    const id = created.structuredContent.item.id;

    const got = await mcp.ok('content_get', { collection: 'posts', id });
    expect(got._rev).toEqual(expect.any(String));
    const updated = await mcp.ok('content_update', {
      collection: 'posts',
      id,
      data: { title: 'Hello 2' },
      _rev: got._rev,
    });
    const stale = await mcp.call('content_update', { collection: 'posts', id, data: { title: 'x' }, _rev: got._rev });
    expect(stale.isError).toBe(true);
    expect(stale.content[0].text).toMatch(/^\[REV_CONFLICT\] /);
    expect(stale._meta?.code).toBe('REV_CONFLICT');

    await mcp.ok('content_publish', { collection: 'posts', id, _rev: updated._rev });
    await mcp.ok('content_update', { collection: 'posts', id, data: { title: 'Staged' } });
    const cmp = await mcp.ok('content_compare', { collection: 'posts', id });
    expect(cmp.changedFields).toEqual(['title']);
    await mcp.ok('content_discard_draft', { collection: 'posts', id });
    await mcp.ok('content_unpublish', { collection: 'posts', id });
    const sch = await mcp.ok('content_schedule', { collection: 'posts', id, scheduledAt: '2099-01-01T00:00:00Z' });
    expect(sch.item.status).toBe('scheduled');
    await mcp.ok('content_unschedule', { collection: 'posts', id });

    const dup = await mcp.ok('content_duplicate', { collection: 'posts', id });
    expect(dup.item.slug).toBe('hello-copy');
    const fr = await mcp.ok('content_create', {
      collection: 'posts',
      locale: 'fr',
      translationOf: id,
      data: { title: 'Bonjour' },
    });
    const tr = await mcp.ok('content_translations', { collection: 'posts', id: 'hello' });
    expect(tr.items.map((i: { id: string }) => i.id)).toEqual([id, fr.item.id]);
    const list = await mcp.ok('content_list', {
      collection: 'posts',
      orderBy: 'title',
      fieldFilters: { title: { in: ['Hello 2'] } },
    });
    expect(list.items.map((i: { data: { title: string } }) => i.data.title)).toEqual(['Hello 2', 'Hello 2']);

    await mcp.ok('content_delete', { collection: 'posts', id: dup.item.id });
    const trashed = await mcp.ok('content_list_trashed', { collection: 'posts' });
    expect(trashed.items.map((i: { id: string }) => i.id)).toEqual([dup.item.id]);
    await mcp.ok('content_restore', { collection: 'posts', id: dup.item.id });
    await mcp.ok('content_delete', { collection: 'posts', id: dup.item.id });
    const gone = await mcp.ok('content_permanent_delete', { collection: 'posts', id: dup.item.id });
    expect(gone).toEqual({ deleted: true, id: dup.item.id });

    const revs = await mcp.ok('revision_list', { collection: 'posts', id });
    expect(revs.items.length).toBeGreaterThan(1);
    const first = revs.items[revs.items.length - 1];
    const restored = await mcp.ok('revision_restore', { collection: 'posts', id, revisionId: first.id });
    expect(restored.item.data.title).toBe('Hello');
    await mcp.close();
  });

  it('reports failures as [CODE] message with _meta.code', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const missing = await mcp.call('content_get', { collection: 'posts', id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(missing).toMatchObject({ isError: true, _meta: { code: 'NOT_FOUND' } });
    expect(missing.content[0].text).toMatch(/^\[NOT_FOUND\] /);
    const invalid = await mcp.call('content_create', { collection: 'posts', data: { title: 5 } });
    expect(invalid._meta?.code).toBe('VALIDATION_ERROR');
    expect(invalid._meta?.details.issues[0].path).toEqual(['data', 'title']);
    const badArgs = await mcp.call('content_get', { collection: 'posts' });
    expect(badArgs._meta?.code).toBe('VALIDATION_ERROR');
    const unknown = await mcp.call('no_such_tool', {});
    expect(unknown.isError).toBe(true);
    await mcp.close();
  });

  it('fails with ENTRY_LOCKED naming the holder while another user holds the lock; overrideLock writes anyway', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const editor = await cms.userToken(ROLES.EDITOR);
    const url = await serve(cms);
    const mcp = await mcpClient(url, editor.token);
    const { item } = (await mcp.ok('content_create', { collection: 'posts', data: { title: 'A' } })) as {
      item: { id: string };
    };
    await call(cms, 'POST', `/content/posts/${item.id}/lock`, { token: cms.adminToken, body: {} });
    for (const [tool, extra] of [
      ['content_update', { data: { title: 'B' } }],
      ['content_delete', {}],
      ['content_publish', {}],
      ['content_schedule', { scheduledAt: '2099-01-01T00:00:00Z' }],
    ] as const) {
      const res = await mcp.call(tool, { collection: 'posts', id: item.id, ...extra });
      expect(res._meta?.code, tool).toBe('ENTRY_LOCKED');
      expect(res._meta?.details).toEqual({
        userId: cms.adminId,
        userName: 'Admin',
        acquiredAt: expect.any(String),
        expiresAt: expect.any(String),
      });
    }
    const forced = await mcp.call('content_update', {
      collection: 'posts',
      id: item.id,
      data: { title: 'B' },
      overrideLock: true,
    });
    expect(forced.isError).toBeFalsy();
    await mcp.close();
  });

  it('checks the token scope and, separately, the user role', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const url = await serve(cms);
    const readOnly = await cms.services.tokens.create(null, {
      userId: cms.adminId,
      name: 'ro',
      scopes: ['content:read'],
    });
    const ro = await mcpClient(url, readOnly.token);
    expect((await ro.call('content_list', { collection: 'posts' })).isError).toBeFalsy();
    const denied = await ro.call('content_create', { collection: 'posts', data: { title: 'x' } });
    expect(denied._meta?.code).toBe('INSUFFICIENT_SCOPE');
    expect((await ro.call('schema_list_collections'))._meta?.code).toBe('INSUFFICIENT_SCOPE');
    await ro.close();

    const sub = await cms.userToken(ROLES.SUBSCRIBER, ['content:read']);
    const subscriber = await mcpClient(url, sub.token);
    const compare = await subscriber.call('content_compare', { collection: 'posts', id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(compare._meta?.code).toBe('INSUFFICIENT_PERMISSIONS');
    await subscriber.close();

    const contributor = await cms.userToken(ROLES.CONTRIBUTOR, ['content:read', 'content:write']);
    const c = await mcpClient(url, contributor.token);
    const own = await c.ok('content_create', { collection: 'posts', data: { title: 'mine' } });
    const pub = await c.call('content_publish', { collection: 'posts', id: own.item.id });
    expect(pub._meta?.code).toBe('INSUFFICIENT_PERMISSIONS');
    await c.close();
  });
});

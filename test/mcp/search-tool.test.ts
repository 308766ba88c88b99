import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { call, testCms } from '../helpers/cms.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';
import { articles, published } from '../helpers/search.js';

describeEachDialect('MCP search tool', (dialect) => {
  it('searches with the read rules of the token, pages with cursors and refuses bad input', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    await articles(cms, { slug: 'notes' });
    const live = await published(cms, { title: 'Live manatee', body: 'gentle sea cow' });
    const note = await published(cms, { title: 'Manatee note' }, 'notes');
    await call(cms, 'POST', '/content/articles', { token: cms.adminToken, body: { data: { title: 'Draft manatee' } } });
    const url = await serve(cms);

    const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
    const sub = await mcpClient(url, subscriber.token);
    const found = await sub.ok('search', { query: 'manatee' });
    expect(found.items.map((i: { id: string }) => i.id).sort()).toEqual([live, note].sort());
    const res = await sub.call('search', { query: 'manatee', collections: ['articles'], limit: 1 });
    expect(res.structuredContent.items).toHaveLength(1);
    expect(res.structuredContent.items[0]).toMatchObject({ id: live, collection: 'articles' });
    expect(res.structuredContent.items[0].snippet).toContain('<mark>');
    expect(res.structuredContent.nextCursor).toBeUndefined();

    const admin = await mcpClient(url, cms.adminToken);
    const all = await admin.ok('search', { query: 'manatee', limit: 2 });
    expect(all.items).toHaveLength(2);
    const rest = await admin.ok('search', { query: 'manatee', limit: 2, cursor: all.nextCursor });
    expect(rest.items).toHaveLength(1);

    for (const args of [{ query: 'lone \ud800' }, { query: 'nul\u0000' }, { query: '' }, { query: 'x', limit: 0 }]) {
      const bad = await admin.call('search', args);
      expect(bad.isError, JSON.stringify(args)).toBe(true);
      expect(bad._meta?.code).toBe('VALIDATION_ERROR');
    }
    const unknown = await admin.call('search', { query: 'x', collections: ['missing'] });
    expect(unknown._meta?.code).toBe('NOT_FOUND');

    const noScope = await cms.userToken(ROLES.EDITOR, ['media:read']);
    const limited = await mcpClient(url, noScope.token);
    const refused = await limited.call('search', { query: 'manatee' });
    expect(refused._meta?.code).toBe('INSUFFICIENT_SCOPE');
    await Promise.all([sub.close(), admin.close(), limited.close()]);
  });
});

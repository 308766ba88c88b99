import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { form, tokensFor } from './flow.js';

describeEachDialect('OAuth connected applications', (dialect) => {
  it('lists the live grants of the caller and disconnects one, ending its tokens', async () => {
    const cms = await testCms(dialect);
    const { userId, token: pat } = await cms.userToken(ROLES.AUTHOR);
    const first = await tokensFor(cms, { userId, scope: 'content:read' });
    const second = await tokensFor(cms, { userId, browser: first.browser, scope: 'content:read content:write' });
    // Rotation keeps one entry per grant.
    const renewed = await form(cms, '/token', {
      grant_type: 'refresh_token',
      client_id: first.clientId,
      refresh_token: first.tokens.refresh_token,
    });
    expect(renewed.status).toBe(200);

    const list = await first.browser.call('GET', '/oauth/connections');
    expect(list.status).toBe(200);
    expect(list.body.data.items).toHaveLength(2);
    expect(list.body.data.items.map((c: { scopes: string[] }) => c.scopes.join(' ')).sort()).toEqual([
      'content:read',
      'content:read content:write',
    ]);
    expect(list.body.data.items[0].client.name).toBe('Test Agent');
    // Someone else sees none of them, and cannot disconnect them.
    expect((await call(cms, 'GET', '/oauth/connections', { token: cms.adminToken })).body.data.items).toEqual([]);
    const id = list.body.data.items.find((c: { scopes: string[] }) => c.scopes.length === 1).id;
    expect((await call(cms, 'DELETE', `/oauth/connections/${id}`, { token: cms.adminToken })).status).toBe(404);

    // The owner may disconnect with a session or a token of their own.
    const gone = await call(cms, 'DELETE', `/oauth/connections/${id}`, { token: pat });
    expect(gone.status).toBe(200);
    expect((await call(cms, 'GET', '/auth/me', { token: renewed.body.access_token })).status).toBe(401);
    expect((await call(cms, 'GET', '/auth/me', { token: second.tokens.access_token })).status).toBe(200);
    const after = await first.browser.call('GET', '/oauth/connections');
    expect(after.body.data.items).toHaveLength(1);
    expect((await call(cms, 'GET', '/oauth/connections')).status).toBe(401);
  });
});

import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { sessionFor } from '../../helpers/session.js';

describeEachDialect('personal access tokens through the session', (dialect) => {
  it('creates (secret shown once), lists and revokes the signed-in user’s tokens', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(30);
    const browser = await sessionFor(cms, userId);
    const made = await browser.call('POST', '/auth/tokens', {
      body: { name: 'Deploy', scopes: ['content:read', 'media:write'], expiresAt: '2099-01-01T00:00:00Z' },
    });
    expect(made.status).toBe(201);
    expect(made.body.data.token).toMatch(/^cms_pat_/);
    expect(made.body.data.record).toEqual({
      id: expect.any(String),
      name: 'Deploy',
      prefix: made.body.data.token.slice(0, 14),
      scopes: ['content:read', 'media:write'],
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: '2099-01-01T00:00:00.000Z',
    });
    const secret = made.body.data.token;
    expect((await call(cms, 'GET', '/auth/me', { token: secret })).body.data.user.id).toBe(userId);

    const list = await browser.call('GET', '/auth/tokens');
    const names = list.body.data.items.map((t: { name: string }) => t.name);
    expect(names).toContain('Deploy');
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const revoked = await browser.call('DELETE', `/auth/tokens/${made.body.data.record.id}`);
    expect(revoked.body.data).toEqual({ revoked: true });
    expect((await call(cms, 'GET', '/auth/me', { token: secret })).status).toBe(401);
  });

  it('lets an Admin list and revoke another user’s tokens, and nobody else', async () => {
    const cms = await testCms(dialect);
    const a = await cms.userToken(30);
    const b = await cms.userToken(30);
    const listed = await call(cms, 'GET', `/auth/tokens?userId=${a.userId}`, { token: cms.adminToken });
    expect(listed.body.data.items).toHaveLength(1);
    const id = listed.body.data.items[0].id;
    expect((await call(cms, 'GET', `/auth/tokens?userId=${a.userId}`, { token: b.token })).status).toBe(403);
    expect((await call(cms, 'DELETE', `/auth/tokens/${id}`, { token: b.token })).status).toBe(403);
    expect((await call(cms, 'DELETE', `/auth/tokens/${id}`, { token: cms.adminToken })).status).toBe(200);
    expect((await call(cms, 'GET', '/auth/me', { token: a.token })).status).toBe(401);
  });

  it('lists the scopes the caller may use', async () => {
    const cms = await testCms(dialect);
    const { token } = await cms.userToken(40, ['content:read', 'schema:read']);
    const res = await call(cms, 'GET', '/auth/scopes', { token });
    const allowed = res.body.data.items
      .filter((s: { allowed: boolean }) => s.allowed)
      .map((s: { scope: string }) => s.scope);
    expect(allowed).toEqual(['content:read', 'schema:read']);
    const admin = await call(cms, 'GET', '/auth/scopes', { token: cms.adminToken });
    // An `admin` token opens every core scope; plugin tools (mcp:tools) are never covered by it.
    const refused = admin.body.data.items.filter((s: { allowed: boolean }) => !s.allowed);
    expect(refused.map((s: { scope: string }) => s.scope)).toEqual(['mcp:tools']);
    expect(admin.body.data.items[0]).toEqual({ scope: 'content:read', description: expect.any(String), allowed: true });
    expect((await call(cms, 'GET', '/auth/scopes')).status).toBe(401);
  });
});

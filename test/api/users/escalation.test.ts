import { expect, it } from 'vitest';
import type { Actor } from '../../../src/auth/actor.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { sessionFor } from '../../helpers/session.js';

describeEachDialect('role escalation and the last Admin', (dialect) => {
  it('never demotes or disables the last enabled Admin', async () => {
    const cms = await testCms(dialect);
    const admin = { token: cms.adminToken };
    const demote = await call(cms, 'PUT', `/admin/users/${cms.adminId}`, { ...admin, body: { role: 40 } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('LAST_ADMIN');
    const disable = await call(cms, 'POST', `/admin/users/${cms.adminId}/disable`, admin);
    expect(disable.status).toBe(409);
    expect(disable.body.error.code).toBe('LAST_ADMIN');

    // With a second Admin, one may step down; a disabled Admin does not count.
    const { userId: second } = await cms.userToken(50);
    expect((await call(cms, 'PUT', `/admin/users/${cms.adminId}`, { ...admin, body: { role: 40 } })).status).toBe(200);
    const { token: secondToken } = await cms.services.tokens.create(null, { userId: second, name: 't' });
    const third = (await cms.userToken(50)).userId;
    expect((await call(cms, 'POST', `/admin/users/${third}/disable`, { token: secondToken })).status).toBe(200);
    const last = await call(cms, 'PUT', `/admin/users/${second}`, { token: secondToken, body: { role: 10 } });
    expect(last.body.error.code).toBe('LAST_ADMIN');
  });

  it('lets only one of two concurrent demotions of the last two Admins through', async () => {
    const cms = await testCms(dialect);
    const { userId: other } = await cms.userToken(50);
    const admin = { token: cms.adminToken };
    const results = await Promise.all([
      call(cms, 'PUT', `/admin/users/${cms.adminId}`, { ...admin, body: { role: 40 } }),
      call(cms, 'PUT', `/admin/users/${other}`, { ...admin, body: { role: 40 } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const admins = await call(cms, 'GET', '/admin/users?role=50', { token: (await cms.userToken(50)).token });
    expect(admins.body.data.items).toHaveLength(2); // the survivor and the helper made for this query
  });

  it('answers one 200 and one LAST_ADMIN every time, over many concurrent rounds', async () => {
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 20; round++) {
      // A fresh service each round: a cold token cache and a cold connection pool, as right after start.
      // That is when one request could be authenticated after the other had already committed.
      const cms = await testCms(dialect);
      const { userId: other } = await cms.userToken(50);
      const results = await Promise.all([
        call(cms, 'PUT', `/admin/users/${cms.adminId}`, { token: cms.adminToken, body: { role: 40 } }),
        call(cms, 'PUT', `/admin/users/${other}`, { token: cms.adminToken, body: { role: 40 } }),
      ]);
      const key = results
        .map((r) => (r.status === 200 ? '200' : `${r.status} ${r.body.error.code}`))
        .sort()
        .join(', ');
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      await cms.close(); // give the connections back now (the schema is dropped after the test)
    }
    expect(Object.fromEntries(outcomes)).toEqual({ '200, 409 LAST_ADMIN': 20 });
  }, 60_000);

  it('refuses to raise your own role, even with a stale actor', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(40);
    // An actor that still claims Admin (e.g. a cached token after a demotion) tries to raise its stored role.
    const stale: Actor = {
      kind: 'user',
      userId,
      name: null,
      email: null,
      role: 50,
      scopes: null,
      tokenId: null,
      via: 'session',
    };
    await expect(cms.services.users.admin.update(stale, userId, { role: 50 })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await cms.services.users.get(userId)).role).toBe(40);
  });

  it('never issues token scopes beyond the role, nor beyond the calling token', async () => {
    const cms = await testCms(dialect);
    const { userId, token: authorToken } = await cms.userToken(30, ['content:read', 'content:write']);
    const author = await sessionFor(cms, userId);
    const beyond = await author.call('POST', '/auth/tokens', { body: { name: 'x', scopes: ['schema:write'] } });
    expect(beyond.status).toBe(403);
    expect(beyond.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const adminScope = await author.call('POST', '/auth/tokens', { body: { name: 'x', scopes: ['admin'] } });
    expect(adminScope.status).toBe(403);
    const unknown = await author.call('POST', '/auth/tokens', { body: { name: 'x', scopes: ['root'] } });
    expect(unknown.status).toBe(400);

    // A narrow token cannot mint a wider one.
    const { token: narrow } = await cms.services.tokens.create(null, { userId, name: 'n', scopes: ['content:read'] });
    const wider = await call(cms, 'POST', '/auth/tokens', {
      token: narrow,
      body: { name: 'w', scopes: ['media:write'] },
    });
    expect(wider.status).toBe(403);
    expect(wider.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const same = await call(cms, 'POST', '/auth/tokens', {
      token: narrow,
      body: { name: 's', scopes: ['content:read'] },
    });
    expect(same.status).toBe(201);
    expect(
      (await call(cms, 'POST', '/auth/tokens', { token: authorToken, body: { name: 'w', scopes: ['content:write'] } }))
        .status,
    ).toBe(201);
  });

  it('applies a role change to live tokens at once', async () => {
    const cms = await testCms(dialect);
    const { userId, token } = await cms.userToken(40, ['schema:read']);
    expect((await call(cms, 'GET', '/schema/collections', { token })).status).toBe(200);
    await call(cms, 'PUT', `/admin/users/${userId}`, { token: cms.adminToken, body: { role: 30 } });
    // The token's scope still names schema:read, but the role no longer holds it.
    const after = await call(cms, 'GET', '/schema/collections', { token });
    expect(after.status).toBe(403);
    expect(after.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
  });
});

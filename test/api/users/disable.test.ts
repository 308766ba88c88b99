import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { sessionFor } from '../../helpers/session.js';

describeEachDialect('disabled users', (dialect) => {
  it('lose their sessions and tokens at once, and get their tokens back when enabled', async () => {
    const cms = await testCms(dialect);
    const { userId, token } = await cms.userToken(40);
    const browser = await sessionFor(cms, userId);
    // Warm the token cache: the disable must not be served from it.
    expect((await call(cms, 'GET', '/schema/collections', { token })).status).toBe(200);
    expect((await browser.call('GET', '/auth/me')).status).toBe(200);

    const res = await call(cms, 'POST', `/admin/users/${userId}/disable`, { token: cms.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.data.disabled).toBe(true);

    expect((await call(cms, 'GET', '/schema/collections', { token })).status).toBe(401);
    expect((await browser.call('GET', '/auth/me')).status).toBe(401);
    expect(await cms.ctx.db.selectFrom('_cms_sessions').where('user_id', '=', userId).selectAll().execute()).toEqual(
      [],
    );
    // Signing in again is refused too.
    const link = await call(cms, 'POST', `/admin/users/${userId}/recovery-link`, { token: cms.adminToken });
    expect(link.status).toBe(409);

    const enabled = await call(cms, 'POST', `/admin/users/${userId}/enable`, { token: cms.adminToken });
    expect(enabled.body.data.disabled).toBe(false);
    expect((await call(cms, 'GET', '/schema/collections', { token })).status).toBe(200);
    // The old session stays ended.
    expect((await browser.call('GET', '/auth/me')).status).toBe(401);
  });

  it('cannot use a passkey or a magic link issued before the disable', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(20);
    const browser = await sessionFor(cms, userId);
    expect((await browser.addPasskey()).status).toBe(201);
    const link = await call(cms, 'POST', `/admin/users/${userId}/recovery-link`, { token: cms.adminToken });
    await call(cms, 'POST', `/admin/users/${userId}/disable`, { token: cms.adminToken });
    const signIn = await browser.signInWithPasskey();
    expect(signIn.status).toBe(403);
    const token = new URL(link.body.data.link).searchParams.get('token');
    expect((await browser.call('POST', '/auth/magic-link/consume', { body: { token } })).status).toBe(404);
  });
});

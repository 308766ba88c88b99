import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { GatewayBrowser, startGateway } from '../../helpers/edge-access.js';
import { Browser } from '../../helpers/session.js';

const TOKEN = 'a'.repeat(43);

describeEachDialect('edge access gateway: what the mode takes away', (dialect) => {
  it('answers 409 AUTH_MODE_UNAVAILABLE, naming the mode and the feature, on every route of a removed feature', async () => {
    const gateway = await startGateway();
    // Email is configured, so the refusals below come from the mode, not from missing mail.
    const cms = await testCms(dialect, { config: { auth: gateway.auth(), email: { provider: 'log' } } });
    // The Admin testCms made, signed in through the gateway.
    const admin = new GatewayBrowser(cms, await gateway.sign({ email: 'admin@example.test' }));
    expect((await admin.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.ADMIN);
    const anonymous = new Browser(cms);

    const cases: Array<[string, Promise<{ status: number; body: any }>]> = [
      ['login-page', anonymous.call('POST', '/auth/passkey/options', { body: {} })],
      ['passkey-registration', admin.call('POST', '/auth/passkeys/options', { body: {} })],
      ['magic-link', anonymous.call('POST', '/auth/magic-link/send', { body: { email: 'admin@example.test' } })],
      ['magic-link', anonymous.call('POST', '/auth/magic-link/consume', { body: { token: TOKEN } })],
      ['magic-link', admin.call('POST', `/admin/users/${cms.adminId}/recovery-link`)],
      ['signup', anonymous.call('POST', '/auth/signup/request', { body: { email: 'new@example.test' } })],
      ['signup', anonymous.call('GET', `/auth/signup/${TOKEN}`)],
      ['invites', admin.call('POST', '/admin/invites', { body: { email: 'new@example.test', role: ROLES.AUTHOR } })],
      ['invites', anonymous.call('GET', `/auth/invite/${TOKEN}`)],
      ['setup', anonymous.call('POST', '/setup/options', { body: { siteTitle: 'Site', email: 'x@example.test' } })],
      ['login-providers', anonymous.call('POST', '/auth/oauth/github/start', { body: { intent: 'login' } })],
    ];
    for (const [feature, pending] of cases) {
      const res = await pending;
      expect(res.status, `${feature}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.error.code).toBe('AUTH_MODE_UNAVAILABLE');
      expect(res.body.error.details).toEqual({ mode: 'edge-access', feature });
    }
    // Listing and withdrawing old invites, reading one's passkeys and tokens still work.
    expect((await admin.call('GET', '/admin/invites')).status).toBe(200);
    expect((await admin.call('GET', '/auth/passkeys')).status).toBe(200);
  });

  it('refuses the same features to every door, the command line included', async () => {
    const gateway = await startGateway();
    const cms = await testCms(dialect, { config: { auth: gateway.auth() } });
    const auth = cms.services.auth;
    const refused = [
      auth.passkeys.signInOptions(),
      auth.magicLinks.commandLineLink('admin@example.test'),
      auth.invites.acceptOptions(TOKEN),
      auth.signup.options(TOKEN),
      auth.setup.complete({ setupToken: TOKEN, credential: {} as never }),
    ];
    for (const pending of refused) await expect(pending).rejects.toMatchObject({ code: 'AUTH_MODE_UNAVAILABLE' });
  });

  it('leaves every feature in place in the default mode', async () => {
    const cms = await testCms(dialect, { config: { email: { provider: 'log' } } });
    const methods = await call(cms, 'GET', '/auth/methods');
    expect(methods.body.data).toMatchObject({ mode: 'default', passkey: true, magicLink: true });
    expect(methods.body.data.gateway).toBeUndefined();
    const sent = await new Browser(cms).call('POST', '/auth/magic-link/send', {
      body: { email: 'admin@example.test' },
    });
    expect(sent.status).toBe(200);
    expect((await new Browser(cms).call('POST', '/auth/passkey/options', { body: {} })).status).toBe(200);
  });
});

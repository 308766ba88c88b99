import { expect, it, vi } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import type { ConfigInput } from '../../../src/core/config.js';
import '../../../src/providers-atproto.js';
import { type AtprotoStandin, startAtprotoStandin } from '../../helpers/atproto-standin.js';
import { call, callOk, peerCms, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { providerSignIn, providerSite, SiteBrowser, whoami } from '../../helpers/providers.js';
import { sessionFor } from '../../helpers/session.js';

/**
 * The AT Protocol provider against a stand-in network on loopback (handle resolver, PLC directory,
 * PDS, authorization server with PAR, PKCE and DPoP), driven the way a browser does: start with a
 * handle, follow the authorization URL, open the callback with its query and the site's cookies.
 */
interface AtprotoSite {
  cms: TestCms;
  net: AtprotoStandin;
}

async function atprotoSite(
  dialect: Parameters<typeof providerSite>[0],
  entry: Record<string, unknown> = {},
  options: { withAdmin?: boolean; config?: ConfigInput; net?: AtprotoStandin } = {},
): Promise<AtprotoSite> {
  const { net: given, ...rest } = options;
  const net = given ?? (await startAtprotoStandin());
  vi.stubEnv('CMS_OAUTH_ATPROTO_PLC_URL', net.plcUrl);
  vi.stubEnv('CMS_OAUTH_ATPROTO_HANDLE_RESOLVER', net.handleResolverUrl);
  const site = await providerSite(dialect, { providers: [{ id: 'atproto', ...entry }], ...rest });
  return { cms: site.cms, net };
}

/** Sign in by typing `input`; `as` approves another account at the server than the one typed. */
async function signIn(
  s: AtprotoSite,
  input: string,
  options: { browser?: SiteBrowser; body?: Record<string, unknown>; as?: string; deny?: boolean } = {},
) {
  const browser = options.browser ?? new SiteBrowser(s.cms);
  const result = await providerSignIn(browser, 'atproto', (u) => s.net.authorize(u, options), {
    intent: 'login',
    ...options.body,
    input,
  });
  return { ...result, browser };
}

const storedRows = (s: AtprotoSite) => s.cms.ctx.db.selectFrom('_cms_provider_storage').selectAll().execute();

describeEachDialect('AT Protocol login provider', (dialect) => {
  it('an allowlisted handle signs up: a Subscriber with no address, through PAR, PKCE and DPoP', async () => {
    const s = await atprotoSite(dialect, { allowedHandles: ['alice.test'] });
    const did = s.net.account('alice.test');
    const browser = new SiteBrowser(s.cms);
    const start = await browser.call('POST', '/auth/oauth/atproto/start', {
      body: { intent: 'login', input: '@Alice.Test' },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    // The library's authorization state waits in the database, not in this process.
    expect(await storedRows(s)).toMatchObject([{ provider: 'atproto', collection: 'oauth_states' }]);
    const back = await s.net.authorize(start.body.data.url);
    // Loopback development: the loopback client form, redirect URI on 127.0.0.1.
    const par = s.net.seen.par[0];
    expect(par.get('client_id')).toBe(
      `http://localhost?redirect_uri=${encodeURIComponent('http://127.0.0.1:4321/_cms/api/auth/oauth/atproto/callback')}&scope=atproto`,
    );
    expect(back.origin).toBe('http://127.0.0.1:4321');
    expect(par.get('login_hint')).toBe('alice.test');
    const res = await browser.open(back);
    expect(res.headers.get('location')).toBe('/_cms/admin/');

    const me = await whoami(browser);
    expect(me).toMatchObject({
      role: ROLES.SUBSCRIBER,
      email: `${did.replace(/:/g, '-')}@did.invalid`,
      name: 'alice.test',
    });
    const identities = (await browser.call('GET', '/auth/identities')).body.data.items;
    expect(identities).toMatchObject([{ provider: 'atproto', subject: did, handle: 'alice.test', address: null }]);
    // The nonce dance happened, the token request carried the PKCE verifier, the tokens were revoked at
    // the end, and nothing of the sign-in is left behind.
    expect(s.net.seen.nonceChallenges).toBeGreaterThan(0);
    expect(s.net.seen.token).toHaveLength(1);
    expect(s.net.seen.token[0].get('code_verifier')).toBeTruthy();
    expect(s.net.seen.revoked).toHaveLength(1);
    expect(s.net.seen.refusals.filter((r) => !r.endsWith('use_dpop_nonce'))).toEqual([]);
    expect(await storedRows(s)).toEqual([]);
    expect(await s.cms.ctx.db.selectFrom('_cms_provider_signins').selectAll().execute()).toEqual([]);
  });

  it('an allowlisted DID signs up with the configured role', async () => {
    const net = await startAtprotoStandin();
    const did = net.account('dave.test');
    const s = await atprotoSite(dialect, { allowedDIDs: [did], defaultRole: ROLES.EDITOR }, { net });
    const r = await signIn(s, did);
    expect(r.location).toBe('/_cms/admin/');
    expect(await whoami(r.browser)).toMatchObject({
      role: ROLES.EDITOR,
      email: `${did.replace(/:/g, '-')}@did.invalid`,
    });
    // Typed as a DID, the server is given the handle that resolves back to it as the hint.
    expect(s.net.seen.par.at(-1)!.get('login_hint')).toBe('dave.test');
  });

  it('refuses an account on neither list, and makes no account', async () => {
    const s = await atprotoSite(dialect, {
      allowedHandles: ['alice.test'],
      allowedDIDs: ['did:plc:aaaaaaaaaaaaaaaaaaaaaaaa'],
    });
    s.net.account('mallory.test');
    const before = await s.cms.ctx.db.selectFrom('_cms_users').select('id').execute();
    const r = await signIn(s, 'mallory.test');
    expect(r.location).toBe('/_cms/admin/login?error=PROVIDER_SIGNUP_NOT_ALLOWED');
    expect(await whoami(r.browser)).toBeNull();
    expect(await s.cms.ctx.db.selectFrom('_cms_users').select('id').execute()).toEqual(before);
    expect(await s.cms.ctx.db.selectFrom('_cms_user_identities').selectAll().execute()).toEqual([]);
  });

  it('signs a known DID in again after its handle changed, and after the allowlist dropped it', async () => {
    const s = await atprotoSite(dialect, { allowedHandles: ['carol.test'] });
    const did = s.net.account('carol.test');
    const first = await signIn(s, 'carol.test');
    const user = await whoami(first.browser);
    expect(user).toMatchObject({ role: ROLES.SUBSCRIBER });

    // The person moves to a new handle; the old one stops resolving.
    s.net.setDocumentHandle(did, 'carol-new.test');
    s.net.pointHandle('carol-new.test', did);
    s.net.pointHandle('carol.test', null);
    const again = await signIn(s, 'carol-new.test');
    expect(again.location).toBe('/_cms/admin/');
    expect(await whoami(again.browser)).toMatchObject({ id: user!.id });
    const identities = (await again.browser.call('GET', '/auth/identities')).body.data.items;
    expect(identities).toMatchObject([{ subject: did, handle: 'carol-new.test' }]);
    // The old handle no longer resolves: refused at the start with its own code.
    const old = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/atproto/start', {
      body: { intent: 'login', input: 'carol.test' },
    });
    expect(old.status).toBe(400);
    expect(old.body.error.code).toBe('PROVIDER_HANDLE_INVALID');
  });

  it('an invite link accepted through the AT Protocol makes the invited account and links the DID', async () => {
    const s = await atprotoSite(dialect);
    const did = s.net.account('ivan.test');
    const invite = await callOk(s.cms, s.cms.adminToken, 'POST', '/admin/invites', {
      email: 'ivan@example.test',
      role: ROLES.AUTHOR,
    });
    const token = new URL(invite.link).searchParams.get('token')!;
    const r = await signIn(s, 'ivan.test', { body: { intent: 'invite', token } });
    expect(r.location).toBe('/_cms/admin/');
    const me = await whoami(r.browser);
    expect(me).toMatchObject({ email: 'ivan@example.test', role: ROLES.AUTHOR });
    expect((await call(s.cms, 'GET', `/auth/invite/${token}`)).status).toBe(404);
    // The DID now signs in to that account without the invite (and without being on a list).
    const again = await signIn(s, did);
    expect(await whoami(again.browser)).toMatchObject({ id: me!.id });
  });

  it('the setup wizard makes the first Admin with the address typed in the wizard', async () => {
    const s = await atprotoSite(dialect, {}, { withAdmin: false });
    const did = s.net.account('owner.test');
    const setup = { intent: 'setup', siteTitle: 'Field Notes', name: 'Olive' };
    // The provider gives no address, so the wizard's is needed.
    const without = await signIn(s, 'owner.test', { body: setup });
    expect(without.error).toBe('PROVIDER_EMAIL_UNVERIFIED');
    expect((await call(s.cms, 'GET', '/setup/status')).body.data.needsSetup).toBe(true);
    const bad = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/atproto/start', {
      body: { ...setup, email: 'not an address', input: 'owner.test' },
    });
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');

    const r = await signIn(s, 'owner.test', { body: { ...setup, email: ' Owner@Example.test ' } });
    expect(r.location).toBe('/_cms/admin/');
    expect(await whoami(r.browser)).toMatchObject({ email: 'owner@example.test', role: ROLES.ADMIN, name: 'Olive' });
    expect((await call(s.cms, 'GET', '/setup/status')).body.data.needsSetup).toBe(false);
    const identities = (await r.browser.call('GET', '/auth/identities')).body.data.items;
    expect(identities).toMatchObject([{ subject: did, handle: 'owner.test' }]);
  });

  it('links the DID to the signed-in account, which it then signs in to', async () => {
    const s = await atprotoSite(dialect);
    const did = s.net.account('admin.test');
    const account = new SiteBrowser(s.cms);
    account.cookies.set('cms_session', (await sessionFor(s.cms, s.cms.adminId)).cookie!);
    const link = await signIn(s, 'admin.test', { browser: account, body: { intent: 'link' } });
    expect(link.location).toBe('/_cms/admin/account?linked=atproto');
    const r = await signIn(s, 'admin.test');
    expect(r.location).toBe('/_cms/admin/');
    expect(await whoami(r.browser)).toMatchObject({ id: s.cms.adminId, email: 'admin@example.test' });
    // Another account cannot take the same DID.
    const other = await s.cms.userToken(ROLES.EDITOR);
    const otherBrowser = new SiteBrowser(s.cms);
    otherBrowser.cookies.set('cms_session', (await sessionFor(s.cms, other.userId)).cookie!);
    const taken = await signIn(s, did, { browser: otherBrowser, body: { intent: 'link' } });
    expect(taken.location).toBe('/_cms/admin/account?error=PROVIDER_IDENTITY_IN_USE');
  });

  it('refuses a handle that does not resolve back to the DID', async () => {
    const s = await atprotoSite(dialect, { allowedHandles: ['alice.test'] });
    const alice = s.net.account('alice.test');
    // mallory.test resolves to Alice's DID, whose document names alice.test: refused at the start.
    s.net.pointHandle('mallory.test', alice);
    const typed = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/atproto/start', {
      body: { intent: 'login', input: 'mallory.test' },
    });
    expect(typed.status).toBe(400);
    expect(typed.body.error.code).toBe('PROVIDER_HANDLE_INVALID');
    // A handle that resolves to nothing, and a DID nobody registered, are refused the same way.
    for (const input of ['nobody.test', 'did:plc:bbbbbbbbbbbbbbbbbbbbbbbb']) {
      const res = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/atproto/start', {
        body: { intent: 'login', input },
      });
      expect(res.body.error.code, input).toBe('PROVIDER_HANDLE_INVALID');
    }
    // Anything else is not a handle or a DID.
    const url = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/atproto/start', {
      body: { intent: 'login', input: s.net.pdsUrl },
    });
    expect(url.body.error.code).toBe('VALIDATION_ERROR');

    // Mallory's own DID document claims the allowlisted alice.test, which resolves to Alice: the
    // sign-in completes at her server, but the handle does not count, so the list does not admit her.
    const mallory = s.net.account('mallory-real.test');
    s.net.setDocumentHandle(mallory, 'alice.test');
    const spoof = await signIn(s, mallory);
    expect(spoof.location).toBe('/_cms/admin/login?error=PROVIDER_SIGNUP_NOT_ALLOWED');
    expect(await s.cms.ctx.db.selectFrom('_cms_user_identities').selectAll().execute()).toEqual([]);
  });

  it('refuses a disabled user, until an Admin enables them', async () => {
    const s = await atprotoSite(dialect, { allowedHandles: ['rae.test'] });
    s.net.account('rae.test');
    const first = await signIn(s, 'rae.test');
    const user = (await whoami(first.browser))!;
    await callOk(s.cms, s.cms.adminToken, 'POST', `/admin/users/${user.id}/disable`);
    expect(await whoami(first.browser)).toBeNull();
    expect((await signIn(s, 'rae.test')).error).toBe('FORBIDDEN');
    await callOk(s.cms, s.cms.adminToken, 'POST', `/admin/users/${user.id}/enable`);
    expect(await whoami((await signIn(s, 'rae.test')).browser)).toMatchObject({ id: user.id });
  });

  it('refuses a token for an account its server does not serve, and a declined sign-in', async () => {
    const s = await atprotoSite(dialect, { allowedHandles: ['alice.test', 'eve.test'] });
    s.net.account('alice.test');
    // Eve's DID document names another PDS, whose authorization server is another one: a token this
    // server issues for her is not hers to give, so the library refuses it (and revokes it).
    const eve = s.net.account('eve.test');
    const elsewhere = await startAtprotoStandin();
    s.net.setDocumentPds(eve, elsewhere.pdsUrl);
    const r = await signIn(s, 'alice.test', { as: eve });
    expect(s.net.seen.token).toHaveLength(1);
    expect(s.net.seen.revoked).toHaveLength(1);
    expect(r.location).toBe('/_cms/admin/login?error=PROVIDER_FAILED');
    expect(await whoami(r.browser)).toBeNull();
    expect(await s.cms.ctx.db.selectFrom('_cms_user_identities').selectAll().execute()).toEqual([]);
    const declined = await signIn(s, 'alice.test', { deny: true });
    expect(declined.location).toBe('/_cms/admin/login?error=PROVIDER_DENIED');
  });

  it('any process serves the callback, and the callback is single use', async () => {
    const s = await atprotoSite(dialect, { allowedHandles: ['alice.test'] });
    s.net.account('alice.test');
    const browser = new SiteBrowser(s.cms);
    const start = await browser.call('POST', '/auth/oauth/atproto/start', {
      body: { intent: 'login', input: 'alice.test' },
    });
    const back = await s.net.authorize(start.body.data.url);
    const peer = new SiteBrowser(await peerCms(s.cms));
    for (const [k, v] of browser.cookies) peer.cookies.set(k, v);
    expect((await peer.open(back)).headers.get('location')).toBe('/_cms/admin/');
    expect(await whoami(peer)).toMatchObject({ role: ROLES.SUBSCRIBER });
    const replay = new SiteBrowser(s.cms);
    for (const [k, v] of browser.cookies) replay.cookies.set(k, v);
    expect((await replay.open(back)).headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_STATE_INVALID');
  });

  it('sends a callback reached on 127.0.0.1 to the localhost site first, where its cookies are', async () => {
    const s = await atprotoSite(dialect);
    const path = '/_cms/api/auth/oauth/atproto/callback?code=c&state=s&iss=x';
    const res = await s.cms.app.request(`http://127.0.0.1:4321${path}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`http://localhost:4321${path}`);
    // Reached at the public address, the same query is the framework's (an unknown state here).
    const direct = await s.cms.app.request(`http://localhost:4321${path}`);
    expect(direct.headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_STATE_INVALID');
  });

  it('an https site is its own client: the client metadata document it serves is what the server reads', async () => {
    let cms: TestCms | null = null;
    const net = await startAtprotoStandin({
      fetchClientMetadata: async (clientId) => cms!.app.request(new URL(clientId).pathname),
    });
    vi.stubEnv('CMS_OAUTH_ATPROTO_PLC_URL', net.plcUrl);
    vi.stubEnv('CMS_OAUTH_ATPROTO_HANDLE_RESOLVER', net.handleResolverUrl);
    cms = await testCms(dialect, {
      config: { publicUrl: 'https://cms.example.test', providers: [{ id: 'atproto', allowedHandles: ['alice.test'] }] },
    });
    const doc = await cms.app.request('/_cms/api/auth/oauth/atproto/client-metadata.json');
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toMatch(/^application\/json/);
    const metadata = await doc.json();
    expect(metadata).toEqual({
      client_id: 'https://cms.example.test/_cms/api/auth/oauth/atproto/client-metadata.json',
      client_uri: 'https://cms.example.test',
      redirect_uris: ['https://cms.example.test/_cms/api/auth/oauth/atproto/callback'],
      scope: 'atproto',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'web',
      dpop_bound_access_tokens: true,
    });
    expect((await cms.app.request('/_cms/api/auth/oauth/atproto/other.json')).status).toBe(404);

    net.account('alice.test');
    const browser = new SiteBrowser(cms);
    const r = await providerSignIn(browser, 'atproto', (u) => net.authorize(u), {
      intent: 'login',
      input: 'alice.test',
    });
    expect(r.location).toBe('/_cms/admin/');
    expect(net.seen.clientMetadata).toEqual([metadata]);
    expect(await whoami(browser)).toMatchObject({ role: ROLES.SUBSCRIBER });
  });

  it('mails nothing to an account without an address; a recovery link is handed to the Admin', async () => {
    const { SmtpSink } = await import('../../helpers/smtp.js');
    const sink = await new SmtpSink().start();
    try {
      const s = await atprotoSite(
        dialect,
        { allowedHandles: ['alice.test'] },
        { config: { email: { provider: 'smtp', url: sink.url, from: 'CMS <cms@example.test>' } } },
      );
      const did = s.net.account('alice.test');
      const user = (await whoami((await signIn(s, 'alice.test')).browser))!;
      const reserved = `${did.replace(/:/g, '-')}@did.invalid`;
      expect(
        (
          await call(s.cms, 'POST', '/auth/magic-link/send', {
            body: { email: reserved },
            headers: { 'x-cms-request': '1' },
          })
        ).status,
      ).toBe(200);
      await s.cms.services.auth.settled();
      const recovery = await callOk(s.cms, s.cms.adminToken, 'POST', `/admin/users/${user.id}/recovery-link`);
      expect(recovery).toMatchObject({ emailed: false });
      expect(recovery.link).toMatch(/\/_cms\/admin\/magic-link\?token=/);
      // Real addresses still get their mail.
      await call(s.cms, 'POST', '/auth/magic-link/send', {
        body: { email: 'admin@example.test' },
        headers: { 'x-cms-request': '1' },
      });
      await s.cms.services.auth.settled();
      await sink.next('admin@example.test');
      expect(sink.mails.filter((m) => m.to.some((t) => t.endsWith('.invalid')))).toEqual([]);
    } finally {
      await sink.close();
    }
  });
});

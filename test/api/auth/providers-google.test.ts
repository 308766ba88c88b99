import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { ManualClock } from '../../../src/core/clock.js';
import { call, callOk } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import type { StandinAccount } from '../../helpers/oidc-standin.js';
import { providerSignIn, providerSite, SiteBrowser, whoami } from '../../helpers/providers.js';

/**
 * The linking and provisioning rules, through Google (OpenID Connect) against a real OpenID
 * Connect provider on loopback: what a verified identity may do, and every refusal.
 */
const alice = { sub: 'google-alice', email: 'alice@example.test', email_verified: true, name: 'Alice A.' };

const site = (dialect: 'sqlite' | 'postgres', accounts: StandinAccount[] = [alice]) =>
  providerSite(dialect, { providers: [{ id: 'google' }], google: accounts });

const identities = (s: Awaited<ReturnType<typeof site>>) =>
  s.cms.ctx.db.selectFrom('_cms_user_identities').selectAll().orderBy('subject').execute();

describeEachDialect('login providers: Google and the linking rules', (dialect) => {
  it('links an existing user by the verified address, keeps its role, and opens the same session a passkey does', async () => {
    const s = await site(dialect);
    const { user } = await s.cms.services.users.create(null, { email: 'Alice@Example.test', role: ROLES.EDITOR });
    const browser = new SiteBrowser(s.cms);
    const start = await browser.call('POST', '/auth/oauth/google/start', { body: { intent: 'login' } });
    expect(start.status).toBe(200);
    expect(start.headers.get('cache-control')).toBe('no-store');
    const auth = new URL(start.body.data.url);
    expect(auth.origin + auth.pathname).toBe(`${s.google!.issuer}/auth`);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('redirect_uri')).toBe('http://localhost:4321/_cms/api/auth/oauth/google/callback');
    expect(auth.searchParams.get('nonce')).toBeTruthy();
    expect(auth.searchParams.get('state')).toBeTruthy();

    const back = await s.google!.authorize(start.body.data.url, 'google-alice');
    const res = await browser.open(back);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/_cms/admin/');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cms_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=7776000/);

    expect(await whoami(browser)).toMatchObject({ id: user.id, email: 'alice@example.test', role: ROLES.EDITOR });
    const sessions = await s.cms.ctx.db.selectFrom('_cms_sessions').select(['user_id', 'method']).execute();
    expect(sessions).toEqual([{ user_id: user.id, method: 'provider:google' }]);
    expect(await identities(s)).toMatchObject([
      { provider: 'google', subject: 'google-alice', user_id: user.id, address: 'alice@example.test' },
    ]);
    // The ID token's signature was checked against the discovery document's keys.
    expect(s.google!.requests).toContain('/google/jwks');

    // A linked identity signs in again, in a fresh browser; the role is still the user's own.
    const again = new SiteBrowser(s.cms);
    const second = await providerSignIn(again, 'google', (u) => s.google!.authorize(u, 'google-alice'));
    expect(second.error).toBeNull();
    expect(await whoami(again)).toMatchObject({ id: user.id, role: ROLES.EDITOR });
  });

  it('never links an unverified address', async () => {
    const s = await site(dialect, [{ ...alice, email_verified: false }]);
    await s.cms.services.users.create(null, { email: 'alice@example.test', role: ROLES.AUTHOR });
    const browser = new SiteBrowser(s.cms);
    const r = await providerSignIn(browser, 'google', (u) => s.google!.authorize(u, 'google-alice'));
    expect(r).toMatchObject({ status: 302, location: '/_cms/admin/login?error=PROVIDER_EMAIL_UNVERIFIED' });
    expect(await whoami(browser)).toBeNull();
    expect(browser.session).toBeUndefined();
    expect(await identities(s)).toEqual([]);
  });

  it('links a new subject arriving later with the same verified address to the same user', async () => {
    const s = await site(dialect, [alice, { ...alice, sub: 'google-alice-2' }]);
    const { user } = await s.cms.services.users.create(null, { email: 'alice@example.test', role: ROLES.AUTHOR });
    await providerSignIn(new SiteBrowser(s.cms), 'google', (u) => s.google!.authorize(u, 'google-alice'));
    const browser = new SiteBrowser(s.cms);
    const r = await providerSignIn(browser, 'google', (u) => s.google!.authorize(u, 'google-alice-2'));
    expect(r.error).toBeNull();
    expect(await whoami(browser)).toMatchObject({ id: user.id, role: ROLES.AUTHOR });
    expect((await identities(s)).map((i) => [i.subject, i.user_id])).toEqual([
      ['google-alice', user.id],
      ['google-alice-2', user.id],
    ]);
  });

  it('keeps disabled users out, linked or not', async () => {
    const s = await site(dialect, [alice, { sub: 'google-bob', email: 'bob@example.test', email_verified: true }]);
    const { user: a } = await s.cms.services.users.create(null, { email: 'alice@example.test', role: ROLES.EDITOR });
    const { user: b } = await s.cms.services.users.create(null, { email: 'bob@example.test', role: ROLES.EDITOR });
    await providerSignIn(new SiteBrowser(s.cms), 'google', (u) => s.google!.authorize(u, 'google-alice'));
    await callOk(s.cms, s.cms.adminToken, 'POST', `/admin/users/${a.id}/disable`);
    await callOk(s.cms, s.cms.adminToken, 'POST', `/admin/users/${b.id}/disable`);
    for (const sub of ['google-alice', 'google-bob']) {
      const browser = new SiteBrowser(s.cms);
      const r = await providerSignIn(browser, 'google', (u) => s.google!.authorize(u, sub));
      expect(r.location, sub).toBe('/_cms/admin/login?error=FORBIDDEN');
      expect(await whoami(browser)).toBeNull();
    }
    // Bob's identity was not linked while he was disabled.
    expect((await identities(s)).map((i) => i.subject)).toEqual(['google-alice']);
  });

  it('lets an address of an enabled allowed domain sign up with its default role, and no one else', async () => {
    const s = await site(dialect, [
      { sub: 'g-carol', email: 'carol@team.example', email_verified: true, name: 'Carol' },
      { sub: 'g-dave', email: 'dave@elsewhere.example', email_verified: true },
    ]);
    await callOk(s.cms, s.cms.adminToken, 'POST', '/admin/allowed-domains', {
      domain: 'team.example',
      defaultRole: ROLES.CONTRIBUTOR,
    });
    const carol = new SiteBrowser(s.cms);
    expect((await providerSignIn(carol, 'google', (u) => s.google!.authorize(u, 'g-carol'))).error).toBeNull();
    expect(await whoami(carol)).toMatchObject({ email: 'carol@team.example', role: ROLES.CONTRIBUTOR, name: 'Carol' });

    const dave = new SiteBrowser(s.cms);
    const refused = await providerSignIn(dave, 'google', (u) => s.google!.authorize(u, 'g-dave'));
    expect(refused.location).toBe('/_cms/admin/login?error=PROVIDER_SIGNUP_NOT_ALLOWED');
    expect(await s.cms.services.users.findByEmail('dave@elsewhere.example')).toBeUndefined();

    // A closed domain admits nobody new.
    await callOk(s.cms, s.cms.adminToken, 'PUT', '/admin/allowed-domains/team.example', { enabled: false });
    s.google!.accounts.set('g-erin', { sub: 'g-erin', email: 'erin@team.example', email_verified: true });
    const erin = await providerSignIn(new SiteBrowser(s.cms), 'google', (u) => s.google!.authorize(u, 'g-erin'));
    expect(erin.error).toBe('PROVIDER_SIGNUP_NOT_ALLOWED');
  });

  it('refuses a callback that is replayed, from another browser, expired, tampered or declined', async () => {
    const s = await site(dialect);
    await s.cms.services.users.create(null, { email: 'alice@example.test', role: ROLES.EDITOR });

    // Replayed: the state works once.
    const browser = new SiteBrowser(s.cms);
    const start = await browser.call('POST', '/auth/oauth/google/start', { body: { intent: 'login' } });
    const back = await s.google!.authorize(start.body.data.url, 'google-alice');
    expect((await browser.open(back)).headers.get('location')).toBe('/_cms/admin/');
    const replay = await browser.open(back);
    expect(replay.headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_STATE_INVALID');

    // Another browser (no binding cookie) cannot finish a sign-in it did not start, and uses it up.
    const victim = new SiteBrowser(s.cms);
    const start2 = await victim.call('POST', '/auth/oauth/google/start', { body: { intent: 'login' } });
    const back2 = await s.google!.authorize(start2.body.data.url, 'google-alice');
    const other = new SiteBrowser(s.cms);
    expect((await other.open(back2)).headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_STATE_INVALID');
    expect(other.session).toBeUndefined();
    expect((await victim.open(back2)).headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_STATE_INVALID');

    // Unknown state, no state, an unknown provider in the path: refused the same way, never a 500.
    const tampered = new URL(back);
    tampered.searchParams.set('state', 'x'.repeat(43));
    expect((await browser.open(tampered)).headers.get('location')).toBe(
      '/_cms/admin/login?error=PROVIDER_STATE_INVALID',
    );
    expect((await browser.open('http://localhost:4321/_cms/api/auth/oauth/google/callback')).status).toBe(302);
    const unknown = await browser.open('http://localhost:4321/_cms/api/auth/oauth/nope/callback?state=a&code=b');
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get('location')).toBe('/_cms/admin/login?error=NOT_FOUND');

    // Declined at the provider.
    const declined = await providerSignIn(new SiteBrowser(s.cms), 'google', (u) =>
      s.google!.authorize(u, 'google-alice', { deny: true }),
    );
    expect(declined.location).toBe('/_cms/admin/login?error=PROVIDER_DENIED');
  });

  it('refuses a sign-in kept longer than ten minutes', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const s = await providerSite(dialect, { providers: [{ id: 'google' }], google: [alice], clock });
    await s.cms.services.users.create(null, { email: 'alice@example.test' });
    const browser = new SiteBrowser(s.cms);
    const start = await browser.call('POST', '/auth/oauth/google/start', { body: { intent: 'login' } });
    const back = await s.google!.authorize(start.body.data.url, 'google-alice');
    clock.advance(10 * 60_000);
    expect((await browser.open(back)).headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_STATE_INVALID');
    // Within the ten minutes the same steps sign in.
    const fresh = new SiteBrowser(s.cms);
    const again = await fresh.call('POST', '/auth/oauth/google/start', { body: { intent: 'login' } });
    const back2 = await s.google!.authorize(again.body.data.url, 'google-alice');
    clock.advance(10 * 60_000 - 1);
    expect((await fresh.open(back2)).headers.get('location')).toBe('/_cms/admin/');
  });

  it('checks the ID token: its signature by the JWKS, its nonce, and the PKCE verifier', async () => {
    const s = await site(dialect);
    await s.cms.services.users.create(null, { email: 'alice@example.test' });

    s.google!.publishWrongKey = true;
    const forged = await providerSignIn(new SiteBrowser(s.cms), 'google', (u) =>
      s.google!.authorize(u, 'google-alice'),
    );
    expect(forged.location).toBe('/_cms/admin/login?error=PROVIDER_FAILED');
    s.google!.publishWrongKey = false;

    for (const column of ['nonce', 'pkce_verifier'] as const) {
      const browser = new SiteBrowser(s.cms);
      const start = await browser.call('POST', '/auth/oauth/google/start', { body: { intent: 'login' } });
      // What the service expects differs from what the provider was given.
      await s.cms.ctx.db
        .updateTable('_cms_provider_signins')
        .set({ [column]: 'A'.repeat(43) })
        .execute();
      const back = await s.google!.authorize(start.body.data.url, 'google-alice');
      expect((await browser.open(back)).headers.get('location'), column).toBe(
        '/_cms/admin/login?error=PROVIDER_FAILED',
      );
      expect(await whoami(browser)).toBeNull();
    }
  });

  it('answers PROVIDER_FAILED when the discovery document names another issuer', async () => {
    const s = await site(dialect);
    // Another address serving the stand-in's discovery document, whose issuer is not that address.
    const { resolveConfig } = await import('../../../src/core/config.js');
    const { createCms } = await import('../../../src/index.js');
    const config = resolveConfig(
      { dataDir: '/tmp/cms-test-data', logLevel: 'silent', providers: [{ id: 'google' }] },
      undefined,
      {
        CMS_OAUTH_GOOGLE_CLIENT_ID: s.google!.clientId,
        CMS_OAUTH_GOOGLE_CLIENT_SECRET: s.google!.clientSecret,
        CMS_OAUTH_GOOGLE_ISSUER: `${s.google!.origin}/impostor`,
      },
    );
    const other = await createCms({ config, database: s.cms.database, migrate: false, scheduler: false });
    try {
      const res = await call(other, 'POST', '/auth/oauth/google/start', {
        body: { intent: 'login' },
        headers: { 'x-cms-request': '1' },
      });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('PROVIDER_FAILED');
      expect(s.google!.requests).toContain('/impostor/.well-known/openid-configuration');
    } finally {
      await other.services.auth.close();
    }
  });

  it('applies the CSRF rule and the rate limit of 10 starts per minute per client IP', async () => {
    const s = await providerSite(dialect, {
      providers: [{ id: 'google' }],
      google: [alice],
      config: { trustedProxyHeaders: ['x-forwarded-for'] },
    });
    const noHeader = await call(s.cms, 'POST', '/auth/oauth/google/start', { body: { intent: 'login' } });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.error.code).toBe('CSRF_REJECTED');
    const fromSite = await call(s.cms, 'POST', '/auth/oauth/google/start', {
      body: { intent: 'login' },
      headers: { origin: 'http://localhost:4321' },
    });
    expect(fromSite.status).toBe(200);

    const start = () =>
      call(s.cms, 'POST', '/auth/oauth/google/start', {
        body: { intent: 'login' },
        headers: { 'x-cms-request': '1', 'x-forwarded-for': '203.0.113.9' },
      });
    for (let i = 0; i < 10; i++) expect((await start()).status).toBe(200);
    const limited = await start();
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.body.error.details).toMatchObject({ limit: 10, windowSeconds: 60 });
  });

  it('refuses an unknown provider and an invalid body at the start', async () => {
    const s = await site(dialect);
    const unknown = await call(s.cms, 'POST', '/auth/oauth/github/start', {
      body: { intent: 'login' },
      headers: { 'x-cms-request': '1' },
    });
    expect(unknown.status).toBe(404);
    const bad = await call(s.cms, 'POST', '/auth/oauth/google/start', {
      body: { intent: 'become-admin' },
      headers: { 'x-cms-request': '1' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });
});

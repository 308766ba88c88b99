import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { describeEachDialect } from '../../helpers/db.js';
import type { GithubUser } from '../../helpers/github-standin.js';
import { providerSignIn, providerSite, SiteBrowser, whoami } from '../../helpers/providers.js';

/** GitHub (OAuth 2): the primary verified address from /user/emails, the numeric user ID as subject. */
const octo: GithubUser = {
  id: 583231,
  login: 'octocat',
  name: 'The Octocat',
  emails: [
    { email: 'octo@old.example', primary: false, verified: true },
    { email: 'octo@example.test', primary: true, verified: true },
  ],
};

const site = (dialect: 'sqlite' | 'postgres', users: GithubUser[] = [octo]) =>
  providerSite(dialect, { providers: [{ id: 'github' }], github: users });
type Site = Awaited<ReturnType<typeof site>>;
const signIn = (s: Site, id: number, options: { deny?: boolean } = {}, browser = new SiteBrowser(s.cms)) =>
  providerSignIn(browser, 'github', (u) => s.github!.authorize(u, id, options)).then((r) => ({ ...r, browser }));

describeEachDialect('login providers: GitHub', (dialect) => {
  it('links the user of the primary verified address and signs in with PKCE', async () => {
    const s = await site(dialect);
    const { user } = await s.cms.services.users.create(null, { email: 'octo@example.test', role: ROLES.AUTHOR });
    const r = await signIn(s, 583231);
    expect(r.location).toBe('/_cms/admin/');
    expect(await whoami(r.browser)).toMatchObject({ id: user.id, role: ROLES.AUTHOR });
    // The code went back with its verifier, the secret in the body.
    expect(s.github!.lastTokenRequest?.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.github!.lastTokenRequest?.get('client_secret')).toBe(s.github!.clientSecret);
    const [identity] = await s.cms.ctx.db.selectFrom('_cms_user_identities').selectAll().execute();
    expect(identity).toMatchObject({ provider: 'github', subject: '583231', address: 'octo@example.test' });
  });

  it('keys the identity by the numeric ID: a renamed login still signs in, a secondary address never links', async () => {
    const s = await site(dialect);
    const { user } = await s.cms.services.users.create(null, { email: 'octo@example.test' });
    // The secondary address belongs to another user: it is not the one GitHub names as primary.
    await s.cms.services.users.create(null, { email: 'octo@old.example', role: ROLES.ADMIN });
    await signIn(s, 583231);
    s.github!.users.set(583231, {
      ...octo,
      login: 'renamed',
      emails: [{ email: 'octo@new.example', primary: true, verified: true }],
    });
    const r = await signIn(s, 583231);
    expect(await whoami(r.browser)).toMatchObject({ id: user.id });
    // The account page shows the address GitHub gives now.
    const [identity] = await s.cms.ctx.db.selectFrom('_cms_user_identities').selectAll().execute();
    expect(identity.address).toBe('octo@new.example');
  });

  it('refuses an unverified primary address, even when a verified secondary one matches a user', async () => {
    const s = await site(dialect, [
      {
        id: 1,
        login: 'mallory',
        emails: [
          { email: 'admin@example.test', primary: true, verified: false },
          { email: 'other@example.test', primary: false, verified: true },
        ],
      },
      { id: 2, login: 'noprimary', emails: [{ email: 'admin@example.test', primary: false, verified: true }] },
    ]);
    for (const id of [1, 2]) {
      const r = await signIn(s, id);
      expect(r.location, String(id)).toBe('/_cms/admin/login?error=PROVIDER_EMAIL_UNVERIFIED');
      expect(await whoami(r.browser)).toBeNull();
    }
  });

  it('names a new account after the GitHub profile, and reports a declined or failed exchange', async () => {
    const s = await site(dialect, [
      { id: 10, login: 'nameless', emails: [{ email: 'nameless@team.example', primary: true, verified: true }] },
    ]);
    const { callOk } = await import('../../helpers/cms.js');
    await callOk(s.cms, s.cms.adminToken, 'POST', '/admin/allowed-domains', {
      domain: 'team.example',
      defaultRole: ROLES.SUBSCRIBER,
    });
    expect((await signIn(s, 10, { deny: true })).error).toBe('PROVIDER_DENIED');
    const r = await signIn(s, 10);
    expect(await whoami(r.browser)).toMatchObject({ email: 'nameless@team.example', role: ROLES.SUBSCRIBER });
    expect((await s.cms.services.users.findByEmail('nameless@team.example'))?.name).toBe('nameless');

    // A code GitHub does not accept (already used): GitHub says so with a 200 answer.
    const browser = new SiteBrowser(s.cms);
    const start = await browser.call('POST', '/auth/oauth/github/start', { body: { intent: 'login' } });
    const back = await s.github!.authorize(start.body.data.url, 10);
    const used = new URL(back);
    used.searchParams.set('code', 'not-a-code');
    const res = await browser.open(used);
    expect(res.headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_FAILED');
  });
});

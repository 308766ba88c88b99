import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import type { DialectName } from '../../../src/db/dialect.js';
import { callOk } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import type { StandinAccount } from '../../helpers/oidc-standin.js';
import { providerSignIn, providerSite, SiteBrowser, TENANT, whoami } from '../../helpers/providers.js';
import { Browser } from '../../helpers/session.js';

/**
 * Microsoft Entra ID: the enterprise directory's address rules and the directory-change rules of
 * the contract, against a real OpenID Connect provider on loopback issuing Entra's claims.
 */
const member = (sub: string, local: string, extra: Partial<StandinAccount> = {}): StandinAccount => ({
  sub,
  tid: TENANT,
  upn: `${local}@contoso.example`,
  email: `${local}@contoso.example`,
  name: local,
  ...extra,
});

async function entraSite(
  dialect: DialectName,
  accounts: StandinAccount[],
  options: { tenant?: string; emailVerified?: boolean } = {},
) {
  const entry: Record<string, unknown> = { id: 'entra' };
  if (options.emailVerified !== undefined) entry.emailVerified = options.emailVerified;
  return providerSite(dialect, { providers: [entry], entra: accounts, tenant: options.tenant });
}

type Site = Awaited<ReturnType<typeof entraSite>>;
const signIn = (s: Site, sub: string, browser = new SiteBrowser(s.cms), body?: Record<string, unknown>) =>
  providerSignIn(browser, 'entra', (u) => s.entra!.authorize(u, sub), body).then((r) => ({ ...r, browser }));

describeEachDialect('login providers: Microsoft Entra ID address rules', (dialect) => {
  it('links a member of the directory whose address is in the domain of its sign-in name', async () => {
    const s = await entraSite(dialect, [member('e-ann', 'ann')]);
    const { user } = await s.cms.services.users.create(null, { email: 'ann@contoso.example', role: ROLES.AUTHOR });
    const r = await signIn(s, 'e-ann');
    expect(r.location).toBe('/_cms/admin/');
    expect(await whoami(r.browser)).toMatchObject({ id: user.id, role: ROLES.AUTHOR });
    // The discovery document came from {authority}/{tenant}/v2.0.
    expect(s.entra!.requests[0]).toBe(`/${TENANT}/v2.0/.well-known/openid-configuration`);
  });

  it('takes the sign-in name as the address when there is no email claim', async () => {
    const s = await entraSite(dialect, [
      member('e-ben', 'ben', { email: undefined }),
      { sub: 'e-cat', tid: TENANT, preferred_username: 'cat@contoso.example' },
    ]);
    const { user: ben } = await s.cms.services.users.create(null, { email: 'ben@contoso.example' });
    const { user: cat } = await s.cms.services.users.create(null, { email: 'cat@contoso.example' });
    expect(await whoami((await signIn(s, 'e-ben')).browser)).toMatchObject({ id: ben.id });
    expect(await whoami((await signIn(s, 'e-cat')).browser)).toMatchObject({ id: cat.id });
  });

  it('does not count an address outside the domain of the sign-in name', async () => {
    const s = await entraSite(dialect, [member('e-dan', 'dan', { email: 'boss@fabrikam.example' })]);
    await s.cms.services.users.create(null, { email: 'boss@fabrikam.example', role: ROLES.ADMIN });
    const r = await signIn(s, 'e-dan');
    expect(r.location).toBe('/_cms/admin/login?error=PROVIDER_EMAIL_UNVERIFIED');
    expect(await whoami(r.browser)).toBeNull();
  });

  it('does not count the addresses of guests or of accounts of other directories', async () => {
    const s = await entraSite(dialect, [
      member('g-ext', 'eve', {
        upn: 'eve_contoso.example#EXT#@tenant.onmicrosoft.example',
        email: 'eve@contoso.example',
      }),
      member('g-idp', 'eve', { idp: 'https://sts.windows.net/00000000-0000-0000-0000-000000000001/' }),
      member('g-acct', 'eve', { acct: 1 }),
      member('g-tid', 'eve', { tid: '00000000-0000-0000-0000-000000000002' }),
    ]);
    await s.cms.services.users.create(null, { email: 'eve@contoso.example', role: ROLES.EDITOR });
    for (const sub of ['g-ext', 'g-idp', 'g-acct', 'g-tid']) {
      const r = await signIn(s, sub);
      expect(r.location, sub).toBe('/_cms/admin/login?error=PROVIDER_EMAIL_UNVERIFIED');
    }
    expect(await s.cms.ctx.db.selectFrom('_cms_user_identities').selectAll().execute()).toEqual([]);
  });

  it('counts an address the directory verified (xms_edov) even outside the sign-in name’s domain', async () => {
    const s = await entraSite(dialect, [member('e-fay', 'fay', { email: 'fay@fabrikam.example', xms_edov: true })]);
    const { user } = await s.cms.services.users.create(null, { email: 'fay@fabrikam.example' });
    expect(await whoami((await signIn(s, 'e-fay')).browser)).toMatchObject({ id: user.id });
  });

  it('counts no address with common, organizations or consumers, unless xms_edov confirms it', async () => {
    for (const tenant of ['common', 'organizations', 'consumers']) {
      const s = await entraSite(dialect, [member('m-gus', 'gus'), member('m-hal', 'hal', { xms_edov: true })], {
        tenant,
      });
      await s.cms.services.users.create(null, { email: 'gus@contoso.example' });
      const { user: hal } = await s.cms.services.users.create(null, { email: 'hal@contoso.example' });
      expect(s.cms.config.providers[0].tenantId).toBe(tenant);
      expect((await signIn(s, 'm-gus')).location, tenant).toBe('/_cms/admin/login?error=PROVIDER_EMAIL_UNVERIFIED');
      expect(await whoami((await signIn(s, 'm-hal')).browser), tenant).toMatchObject({ id: hal.id });
    }
  });

  it('emailVerified: true treats every address as verified', async () => {
    const s = await entraSite(dialect, [member('v-ivy', 'ivy', { email: 'ivy@elsewhere.example', acct: 1 })], {
      emailVerified: true,
    });
    const { user } = await s.cms.services.users.create(null, { email: 'ivy@elsewhere.example' });
    expect(await whoami((await signIn(s, 'v-ivy')).browser)).toMatchObject({ id: user.id });
  });

  it('emailVerified: false lets only already linked users sign in', async () => {
    const s = await entraSite(dialect, [member('u-jo', 'jo'), member('u-kim', 'kim', { xms_edov: true })], {
      emailVerified: false,
    });
    const { user: jo } = await s.cms.services.users.create(null, { email: 'jo@contoso.example' });
    await s.cms.services.users.create(null, { email: 'kim@contoso.example' });
    await callOk(s.cms, s.cms.adminToken, 'POST', '/admin/allowed-domains', {
      domain: 'contoso.example',
      defaultRole: ROLES.AUTHOR,
    });
    // A perfect member of the directory, even with xms_edov, links and signs up nobody.
    expect((await signIn(s, 'u-jo')).error).toBe('PROVIDER_EMAIL_UNVERIFIED');
    expect((await signIn(s, 'u-kim')).error).toBe('PROVIDER_EMAIL_UNVERIFIED');

    // Jo links the directory account from a signed-in session; from then on it signs Jo in.
    const { sessionFor } = await import('../../helpers/session.js');
    const jos = await sessionFor(s.cms, jo.id);
    const account = new SiteBrowser(s.cms);
    account.cookies.set('cms_session', jos.cookie!);
    const linked = await signIn(s, 'u-jo', account, { intent: 'link' });
    expect(linked.location).toBe('/_cms/admin/account?linked=entra');
    const r = await signIn(s, 'u-jo');
    expect(r.error).toBeNull();
    expect(await whoami(r.browser)).toMatchObject({ id: jo.id });
  });
});

describeEachDialect('login providers: directory changes', (dialect) => {
  it('an existing user links on the first verified sign-in and keeps its role; an unverified one is refused', async () => {
    const s = await entraSite(dialect, [
      member('d-lee', 'lee'),
      member('d-lee-unverified', 'lee', { upn: 'lee@other.example' }),
    ]);
    const { user } = await s.cms.services.users.create(null, { email: 'lee@contoso.example', role: ROLES.EDITOR });
    expect((await signIn(s, 'd-lee-unverified')).error).toBe('PROVIDER_EMAIL_UNVERIFIED');
    const r = await signIn(s, 'd-lee');
    expect(await whoami(r.browser)).toMatchObject({ id: user.id, role: ROLES.EDITOR });
    expect((await s.cms.services.users.get(user.id)).role).toBe(ROLES.EDITOR);
  });

  it('an invited user from the invite link gets the invited role; without it the allowed domains decide', async () => {
    const s = await entraSite(dialect, [member('i-max', 'max'), member('i-ned', 'ned'), member('i-ola', 'ola')]);
    const invite = await callOk(s.cms, s.cms.adminToken, 'POST', '/admin/invites', {
      email: 'max@contoso.example',
      role: ROLES.EDITOR,
    });
    const token = new URL(invite.link).searchParams.get('token')!;
    const max = await signIn(s, 'i-max', undefined, { intent: 'invite', token });
    expect(max.location).toBe('/_cms/admin/');
    expect(await whoami(max.browser)).toMatchObject({ email: 'max@contoso.example', role: ROLES.EDITOR });

    // Without an invite and without an allowed domain: refused.
    expect((await signIn(s, 'i-ned')).error).toBe('PROVIDER_SIGNUP_NOT_ALLOWED');
    // With the domain allowed: its default role.
    await callOk(s.cms, s.cms.adminToken, 'POST', '/admin/allowed-domains', {
      domain: 'contoso.example',
      defaultRole: ROLES.CONTRIBUTOR,
    });
    expect(await whoami((await signIn(s, 'i-ola')).browser)).toMatchObject({ role: ROLES.CONTRIBUTOR });
  });

  it('a disabled or deleted directory account stops new sign-ins, not an open session or passkeys', async () => {
    const s = await entraSite(dialect, [member('x-pat', 'pat')]);
    await s.cms.services.users.create(null, { email: 'pat@contoso.example', role: ROLES.AUTHOR });
    const first = await signIn(s, 'x-pat');
    const passkeys = new Browser(s.cms);
    passkeys.cookie = first.browser.session!;
    expect((await passkeys.addPasskey('Laptop')).status).toBe(201);

    // The directory disables the account, then deletes it.
    s.entra!.refused.add('x-pat');
    expect((await signIn(s, 'x-pat')).error).toBe('PROVIDER_DENIED');
    s.entra!.accounts.delete('x-pat');
    expect((await signIn(s, 'x-pat')).error).toBe('PROVIDER_DENIED');

    expect(await whoami(first.browser)).toMatchObject({ email: 'pat@contoso.example' });
    const later = new Browser(s.cms, passkeys.authenticator);
    expect((await later.signInWithPasskey()).status).toBe(200);
  });

  it('a new directory account later given the same address links to the existing user and its role', async () => {
    const s = await entraSite(dialect, [member('old-quinn', 'quinn')]);
    const { user } = await s.cms.services.users.create(null, { email: 'quinn@contoso.example', role: ROLES.EDITOR });
    await signIn(s, 'old-quinn');
    s.entra!.accounts.delete('old-quinn');
    s.entra!.accounts.set('new-quinn', member('new-quinn', 'quinn'));
    const r = await signIn(s, 'new-quinn');
    expect(await whoami(r.browser)).toMatchObject({ id: user.id, role: ROLES.EDITOR });
    const rows = await s.cms.ctx.db
      .selectFrom('_cms_user_identities')
      .select(['subject', 'user_id'])
      .orderBy('subject')
      .execute();
    expect(rows).toEqual([
      { subject: 'new-quinn', user_id: user.id },
      { subject: 'old-quinn', user_id: user.id },
    ]);
  });

  it('a disabled user stays disabled until an administrator enables it', async () => {
    const s = await entraSite(dialect, [member('z-rae', 'rae')]);
    const { user } = await s.cms.services.users.create(null, { email: 'rae@contoso.example', role: ROLES.AUTHOR });
    const open = await signIn(s, 'z-rae');
    await callOk(s.cms, s.cms.adminToken, 'POST', `/admin/users/${user.id}/disable`);
    expect(await whoami(open.browser)).toBeNull();
    expect((await signIn(s, 'z-rae')).error).toBe('FORBIDDEN');
    expect((await signIn(s, 'z-rae')).error).toBe('FORBIDDEN');
    await callOk(s.cms, s.cms.adminToken, 'POST', `/admin/users/${user.id}/enable`);
    const back = await signIn(s, 'z-rae');
    expect(await whoami(back.browser)).toMatchObject({ id: user.id, role: ROLES.AUTHOR });
  });
});

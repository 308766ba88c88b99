import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, callOk } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { providerSignIn, providerSite, SiteBrowser, whoami } from '../../helpers/providers.js';

/** The setup wizard and the invite page through a login provider (Google stand-in). */
const owner = { sub: 'g-owner', email: 'owner@example.test', email_verified: true, name: 'Provider Name' };
const setupBody = {
  intent: 'setup',
  siteTitle: '  Field Notes ',
  tagline: 'Notes from the field',
  name: 'Olive Owner',
};

describeEachDialect('login providers: first user setup', (dialect) => {
  it('creates the first user as Admin and completes setup with the wizard’s site details', async () => {
    const s = await providerSite(dialect, {
      providers: [{ id: 'google' }],
      google: [owner, { sub: 'g-late', email: 'late@example.test', email_verified: true }],
      withAdmin: false,
    });
    expect((await call(s.cms, 'GET', '/setup/status')).body.data.needsSetup).toBe(true);
    const browser = new SiteBrowser(s.cms);
    const r = await providerSignIn(browser, 'google', (u) => s.google!.authorize(u, 'g-owner'), setupBody);
    expect(r.location).toBe('/_cms/admin/');
    expect(await whoami(browser)).toMatchObject({
      email: 'owner@example.test',
      role: ROLES.ADMIN,
      name: 'Olive Owner',
    });
    const status = (await call(s.cms, 'GET', '/setup/status')).body.data;
    expect(status).toMatchObject({
      needsSetup: false,
      site: { title: 'Field Notes', tagline: 'Notes from the field' },
    });
    // The same completion as the passkey path: the setup mark is written.
    const mark = await s.cms.ctx.db
      .selectFrom('_cms_meta')
      .select('key')
      .where('key', '=', 'setup_completed_at')
      .execute();
    expect(mark).toHaveLength(1);

    // Setup is over: a second start is refused, and so is a second completion already under way.
    const late = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/google/start', { body: setupBody });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('SETUP_COMPLETE');
  });

  it('refuses at its callback a setup started before another one finished', async () => {
    const s = await providerSite(dialect, {
      providers: [{ id: 'google' }],
      google: [owner, { sub: 'g-rival', email: 'rival@example.test', email_verified: true }],
      withAdmin: false,
    });
    const a = new SiteBrowser(s.cms);
    const b = new SiteBrowser(s.cms);
    const startA = await a.call('POST', '/auth/oauth/google/start', { body: setupBody });
    const startB = await b.call('POST', '/auth/oauth/google/start', { body: setupBody });
    const backA = await s.google!.authorize(startA.body.data.url, 'g-owner');
    const backB = await s.google!.authorize(startB.body.data.url, 'g-rival');
    expect((await a.open(backA)).headers.get('location')).toBe('/_cms/admin/');
    expect((await b.open(backB)).headers.get('location')).toBe('/_cms/admin/login?error=SETUP_COMPLETE');
    expect(await s.cms.services.users.count()).toBe(1);
  });

  it('does not set up the site with an unverified address', async () => {
    const s = await providerSite(dialect, {
      providers: [{ id: 'google' }],
      google: [{ ...owner, email_verified: false }],
      withAdmin: false,
    });
    const r = await providerSignIn(
      new SiteBrowser(s.cms),
      'google',
      (u) => s.google!.authorize(u, 'g-owner'),
      setupBody,
    );
    expect(r.error).toBe('PROVIDER_EMAIL_UNVERIFIED');
    expect((await call(s.cms, 'GET', '/setup/status')).body.data.needsSetup).toBe(true);
  });

  it('does not let a plain sign-in create the first account of an empty site', async () => {
    const s = await providerSite(dialect, { providers: [{ id: 'google' }], google: [owner], withAdmin: false });
    const r = await providerSignIn(new SiteBrowser(s.cms), 'google', (u) => s.google!.authorize(u, 'g-owner'));
    expect(r.error).toBe('PROVIDER_SIGNUP_NOT_ALLOWED');
    expect(await s.cms.services.users.count()).toBe(0);
  });

  it('checks the wizard’s fields at the start', async () => {
    const s = await providerSite(dialect, { providers: [{ id: 'google' }], google: [owner], withAdmin: false });
    const res = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/google/start', {
      body: { intent: 'setup', siteTitle: '   ' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describeEachDialect('login providers: invites', (dialect) => {
  async function invited(email: string, role: number) {
    const s = await providerSite(dialect, {
      providers: [{ id: 'google' }],
      google: [
        { sub: 'g-ivan', email: 'ivan@example.test', email_verified: true, name: 'Ivan' },
        { sub: 'g-judy', email: 'judy@example.test', email_verified: true },
        { sub: 'g-ivan-unverified', email: 'ivan@example.test', email_verified: false },
      ],
    });
    const invite = await callOk(s.cms, s.cms.adminToken, 'POST', '/admin/invites', { email, role });
    return { s, token: new URL(invite.link).searchParams.get('token')! };
  }

  it('creates the account with the invited role, once', async () => {
    const { s, token } = await invited('ivan@example.test', ROLES.EDITOR);
    const first = new SiteBrowser(s.cms);
    const second = new SiteBrowser(s.cms);
    const body = { intent: 'invite', token };
    const startA = await first.call('POST', '/auth/oauth/google/start', { body });
    const startB = await second.call('POST', '/auth/oauth/google/start', { body });
    const backA = await s.google!.authorize(startA.body.data.url, 'g-ivan');
    const backB = await s.google!.authorize(startB.body.data.url, 'g-judy');
    expect((await first.open(backA)).headers.get('location')).toBe('/_cms/admin/');
    expect(await whoami(first)).toMatchObject({ email: 'ivan@example.test', role: ROLES.EDITOR, name: 'Ivan' });
    // The invitation is used up: the second acceptance finds nothing, and a new start is a 404.
    expect((await second.open(backB)).headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_INVITE_INVALID');
    const again = await second.call('POST', '/auth/oauth/google/start', { body });
    expect(again.status).toBe(404);
    expect((await call(s.cms, 'GET', `/auth/invite/${token}`)).status).toBe(404);
  });

  it('refuses another address than the invited one, and an unverified one, keeping the invite', async () => {
    const { s, token } = await invited('ivan@example.test', ROLES.AUTHOR);
    const body = { intent: 'invite', token };
    const judy = await providerSignIn(new SiteBrowser(s.cms), 'google', (u) => s.google!.authorize(u, 'g-judy'), body);
    expect(judy.error).toBe('PROVIDER_INVITE_MISMATCH');
    const unverified = await providerSignIn(
      new SiteBrowser(s.cms),
      'google',
      (u) => s.google!.authorize(u, 'g-ivan-unverified'),
      body,
    );
    expect(unverified.error).toBe('PROVIDER_EMAIL_UNVERIFIED');
    expect(await s.cms.services.users.findByEmail('judy@example.test')).toBeUndefined();
    // Still valid for the invited person.
    expect((await call(s.cms, 'GET', `/auth/invite/${token}`)).status).toBe(200);
    const ivan = new SiteBrowser(s.cms);
    await providerSignIn(ivan, 'google', (u) => s.google!.authorize(u, 'g-ivan'), body);
    expect(await whoami(ivan)).toMatchObject({ role: ROLES.AUTHOR });
  });

  it('answers 404 at the start for an unknown invitation', async () => {
    const { s } = await invited('ivan@example.test', ROLES.AUTHOR);
    const res = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/google/start', {
      body: { intent: 'invite', token: 'x'.repeat(43) },
    });
    expect(res.status).toBe(404);
  });
});

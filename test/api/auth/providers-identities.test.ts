import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, callOk } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { providerSignIn, providerSite, SiteBrowser, whoami } from '../../helpers/providers.js';
import { Browser, sessionFor } from '../../helpers/session.js';

/** The account page's linked identities: listing, linking to the signed-in account, unlinking. */
const accounts = [
  { sub: 'g-1', email: 'nora@team.example', email_verified: true },
  { sub: 'g-2', email: 'nora.private@mail.example', email_verified: false },
  { sub: 'g-3', email: 'olaf@example.test', email_verified: true },
];

async function site(dialect: 'sqlite' | 'postgres') {
  const s = await providerSite(dialect, { providers: [{ id: 'google' }], google: accounts });
  await callOk(s.cms, s.cms.adminToken, 'POST', '/admin/allowed-domains', {
    domain: 'team.example',
    defaultRole: ROLES.AUTHOR,
  });
  return s;
}
type Site = Awaited<ReturnType<typeof site>>;
const google = (s: Site, browser: SiteBrowser, sub: string, body?: Record<string, unknown>) =>
  providerSignIn(browser, 'google', (u) => s.google!.authorize(u, sub), body);

describeEachDialect('login providers: linked identities', (dialect) => {
  it('lists the identities of the signed-in user', async () => {
    const s = await site(dialect);
    const nora = new SiteBrowser(s.cms);
    await google(s, nora, 'g-1');
    const list = await nora.call('GET', '/auth/identities');
    expect(list.status).toBe(200);
    expect(list.body.data.items).toEqual([
      {
        provider: 'google',
        label: 'Google',
        subject: 'g-1',
        address: 'nora@team.example',
        handle: null,
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
      },
    ]);
    expect((await call(s.cms, 'GET', '/auth/identities')).status).toBe(401);
    expect((await call(s.cms, 'GET', '/auth/identities', { token: s.cms.adminToken })).body.data.items).toEqual([]);
  });

  it('links a provider account to the signed-in user, even with an unverified address', async () => {
    const s = await site(dialect);
    const nora = new SiteBrowser(s.cms);
    await google(s, nora, 'g-1');
    const userId = (await whoami(nora))!.id;
    const linked = await google(s, nora, 'g-2', { intent: 'link' });
    expect(linked.location).toBe('/_cms/admin/account?linked=google');
    // The session that started the link goes on.
    expect(await whoami(nora)).toMatchObject({ id: userId });
    const later = new SiteBrowser(s.cms);
    await google(s, later, 'g-2');
    expect(await whoami(later)).toMatchObject({ id: userId });
    expect((await nora.call('GET', '/auth/identities')).body.data.items.map((i: any) => i.subject)).toEqual([
      'g-1',
      'g-2',
    ]);
  });

  it('never takes an identity linked to another user, and needs the session that started the link', async () => {
    const s = await site(dialect);
    await google(s, new SiteBrowser(s.cms), 'g-1');
    const { user: olaf } = await s.cms.services.users.create(null, { email: 'olaf@example.test' });
    const olafs = new SiteBrowser(s.cms);
    olafs.cookies.set('cms_session', (await sessionFor(s.cms, olaf.id)).cookie!);
    const taken = await google(s, olafs, 'g-1', { intent: 'link' });
    expect(taken.location).toBe('/_cms/admin/account?error=PROVIDER_IDENTITY_IN_USE');

    // Signed out between the start and the callback: refused.
    const start = await olafs.call('POST', '/auth/oauth/google/start', { body: { intent: 'link' } });
    const back = await s.google!.authorize(start.body.data.url, 'g-2');
    await olafs.call('POST', '/auth/logout');
    expect((await olafs.open(back)).headers.get('location')).toBe('/_cms/admin/account?error=PROVIDER_STATE_INVALID');
    expect(await s.cms.ctx.db.selectFrom('_cms_user_identities').select('subject').execute()).toEqual([
      { subject: 'g-1' },
    ]);

    // Linking needs a browser session: not anonymous, not a token.
    const anonymous = await new SiteBrowser(s.cms).call('POST', '/auth/oauth/google/start', {
      body: { intent: 'link' },
    });
    expect(anonymous.status).toBe(401);
    const token = await call(s.cms, 'POST', '/auth/oauth/google/start', {
      token: s.cms.adminToken,
      body: { intent: 'link' },
    });
    expect(token.status).toBe(403);
  });

  it('unlinks an identity only while another way in remains', async () => {
    const s = await site(dialect);
    const nora = new SiteBrowser(s.cms);
    await google(s, nora, 'g-1');
    const only = await nora.call('DELETE', '/auth/identities/google/g-1');
    expect(only.status).toBe(409);
    expect(only.body.error.code).toBe('LAST_SIGN_IN_METHOD');

    await google(s, nora, 'g-2', { intent: 'link' });
    expect((await nora.call('DELETE', '/auth/identities/google/g-1')).status).toBe(200);
    expect((await nora.call('DELETE', '/auth/identities/google/g-2')).body.error.code).toBe('LAST_SIGN_IN_METHOD');

    // A passkey is another way in.
    const passkeys = new Browser(s.cms);
    passkeys.cookie = nora.session!;
    expect((await passkeys.addPasskey()).status).toBe(201);
    expect((await nora.call('DELETE', '/auth/identities/google/g-2')).status).toBe(200);
    expect((await nora.call('GET', '/auth/identities')).body.data.items).toEqual([]);
  });

  it('unlinks from a session only, with the CSRF header, and only the user’s own identities', async () => {
    const s = await site(dialect);
    const nora = new SiteBrowser(s.cms);
    await google(s, nora, 'g-1');
    await google(s, nora, 'g-2', { intent: 'link' });
    expect((await nora.call('DELETE', '/auth/identities/google/g-1', { csrf: false })).body.error.code).toBe(
      'CSRF_REJECTED',
    );
    expect((await call(s.cms, 'DELETE', '/auth/identities/google/g-1', { token: s.cms.adminToken })).status).toBe(403);
    expect((await nora.call('DELETE', '/auth/identities/google/nope')).status).toBe(404);
    const { user } = await s.cms.services.users.create(null, { email: 'olaf@example.test' });
    const olafs = new SiteBrowser(s.cms);
    olafs.cookies.set('cms_session', (await sessionFor(s.cms, user.id)).cookie!);
    expect((await olafs.call('DELETE', '/auth/identities/google/g-1')).status).toBe(404);
    expect((await nora.call('GET', '/auth/identities')).body.data.items).toHaveLength(2);
  });

  it('removes the identities with their user', async () => {
    const s = await site(dialect);
    const nora = new SiteBrowser(s.cms);
    await google(s, nora, 'g-1');
    const id = (await whoami(nora))!.id;
    await s.cms.ctx.db.deleteFrom('_cms_users').where('id', '=', id).execute();
    expect(await s.cms.ctx.db.selectFrom('_cms_user_identities').selectAll().execute()).toEqual([]);
  });
});

import { expect, it } from 'vitest';
import { systemActor } from '../../../src/auth/actor.js';
import { ROLES } from '../../../src/auth/roles.js';
import { ManualClock } from '../../../src/core/clock.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { GatewayBrowser, startGateway } from '../../helpers/edge-access.js';

const MINUTE = 60_000;

/** A site behind a stand-in gateway, on a clock the test moves (tokens are dated by it). */
async function gatewaySite(dialect: 'sqlite' | 'postgres', auth: Record<string, unknown> = {}, withAdmin = false) {
  const gateway = await startGateway();
  const clock = new ManualClock(new Date());
  const cms = await testCms(dialect, { withAdmin, clock, config: { auth: gateway.auth(auth) } });
  /** Seconds since the epoch on the site's clock: the `iat` of a token issued now. */
  const now = () => Math.floor(clock.now().getTime() / 1000);
  return { gateway, cms, clock, now };
}

const userByEmail = (cms: Awaited<ReturnType<typeof testCms>>, email: string) =>
  cms.ctx.db.selectFrom('_cms_users').selectAll().where('email', '=', email).executeTakeFirst();

describeEachDialect('edge access gateway: sign-in and provisioning', (dialect) => {
  it('signs in with a valid gateway token: provisions the user, opens a session, and re-checks every request', async () => {
    const { gateway, cms } = await gatewaySite(dialect, {}, true);
    const browser = new GatewayBrowser(cms, await gateway.sign({ email: 'Ada@Example.test', name: 'Ada Lovelace' }));

    const me = await browser.call('GET', '/auth/me');
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.data.user).toMatchObject({ email: 'ada@example.test', name: 'Ada Lovelace', role: ROLES.AUTHOR });
    expect(browser.cookie).toBeTruthy();
    const row = await userByEmail(cms, 'ada@example.test');
    expect(row?.role).toBe(ROLES.AUTHOR);
    const sessions = await cms.ctx.db.selectFrom('_cms_sessions').selectAll().where('user_id', '=', row!.id).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].method).toBe('edge_access');

    // The same token and session: no new session, no new user.
    const first = browser.cookie;
    expect((await browser.call('GET', '/auth/me')).status).toBe(200);
    expect(browser.cookie).toBe(first);
    expect(await cms.ctx.db.selectFrom('_cms_users').selectAll().execute()).toHaveLength(2);

    // The session alone is never enough: without the gateway's token the caller is signed out.
    browser.token = null;
    const without = await browser.call('GET', '/auth/me');
    expect(without.status).toBe(401);
    expect(without.body.error.code).toBe('EDGE_ACCESS_TOKEN_MISSING');
  });

  it('makes the very first user an Admin, whatever the groups say; later users get their mapped or default role', async () => {
    const { gateway, cms } = await gatewaySite(dialect, { defaultRole: ROLES.SUBSCRIBER });
    const first = new GatewayBrowser(cms, await gateway.sign({ email: 'first@example.test', groups: [] }));
    expect((await first.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.ADMIN);
    const second = new GatewayBrowser(cms, await gateway.sign({ email: 'second@example.test' }));
    expect((await second.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.SUBSCRIBER);
    // No setup wizard: the site counts as set up once the gateway brought its first user.
    const status = await call(cms, 'GET', '/setup/status');
    expect(status.body.data.needsSetup).toBe(false);
  });

  it('maps groups to roles in roleMapping order (the first matching group wins), else the default role', async () => {
    const roleMapping = { 'cms-editors': ROLES.EDITOR, 'cms-authors': ROLES.AUTHOR, 'cms-admins': ROLES.ADMIN };
    const { gateway, cms } = await gatewaySite(dialect, { roleMapping, defaultRole: ROLES.CONTRIBUTOR }, true);
    const roleOf = async (email: string, groups: unknown) => {
      const res = await new GatewayBrowser(cms, await gateway.sign({ email, groups })).call('GET', '/auth/me');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.user.role;
    };
    // The user lists cms-admins first, but cms-authors comes first in the mapping.
    expect(await roleOf('both@example.test', ['cms-admins', 'cms-authors'])).toBe(ROLES.AUTHOR);
    expect(await roleOf('admin@example.org', ['staff', 'cms-admins'])).toBe(ROLES.ADMIN);
    expect(await roleOf('editor@example.test', ['cms-editors', 'cms-admins'])).toBe(ROLES.EDITOR);
    // No matching group, no groups claim, or a claim that is not a list of strings: the default role.
    expect(await roleOf('staff@example.test', ['staff'])).toBe(ROLES.CONTRIBUTOR);
    expect(await roleOf('nogroups@example.test', undefined)).toBe(ROLES.CONTRIBUTOR);
    expect(await roleOf('odd@example.test', 'cms-admins')).toBe(ROLES.CONTRIBUTOR);
    expect(await roleOf('mixed@example.test', [7, { name: 'cms-admins' }, 'cms-editors'])).toBe(ROLES.EDITOR);
  });

  it('syncRoles false: the role is set at the first sign-in and an Admin change survives later sign-ins', async () => {
    const { gateway, cms, clock, now } = await gatewaySite(dialect, { roleMapping: { editors: ROLES.EDITOR } }, true);
    const browser = new GatewayBrowser(cms, await gateway.sign({ groups: ['editors'], issuedAt: now() }));
    const me = await browser.call('GET', '/auth/me');
    expect(me.body.data.user.role).toBe(ROLES.EDITOR);
    await cms.services.users.admin.update(systemActor, me.body.data.user.id, { role: ROLES.CONTRIBUTOR });

    // A later gateway sign-in (a newer token), in the same browser and in a fresh one.
    clock.advance(10 * MINUTE);
    browser.token = await gateway.sign({ groups: ['editors'], issuedAt: now() });
    const before = browser.cookie;
    const again = await browser.call('GET', '/auth/me');
    expect(browser.cookie).not.toBe(before);
    expect(again.body.data.user.role).toBe(ROLES.CONTRIBUTOR);
    const fresh = new GatewayBrowser(cms, await gateway.sign({ groups: ['editors'], issuedAt: now() }));
    expect((await fresh.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.CONTRIBUTOR);
  });

  it('syncRoles true: the groups replace the role at each gateway sign-in', async () => {
    const { gateway, cms, clock, now } = await gatewaySite(
      dialect,
      { syncRoles: true, roleMapping: { editors: ROLES.EDITOR }, defaultRole: ROLES.SUBSCRIBER },
      true,
    );
    const browser = new GatewayBrowser(cms, await gateway.sign({ groups: ['editors'], issuedAt: now() }));
    const me = await browser.call('GET', '/auth/me');
    expect(me.body.data.user.role).toBe(ROLES.EDITOR);
    await cms.services.users.admin.update(systemActor, me.body.data.user.id, { role: ROLES.CONTRIBUTOR });
    // Within the same gateway sign-in (same token, same session) the Admin's change holds.
    clock.advance(10 * MINUTE);
    expect((await browser.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.CONTRIBUTOR);

    // The next gateway sign-in brings the groups back.
    browser.token = await gateway.sign({ groups: ['editors'], issuedAt: now() });
    expect((await browser.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.EDITOR);
    // Removed from the group: the default role at the next sign-in.
    clock.advance(10 * MINUTE);
    const fresh = new GatewayBrowser(cms, await gateway.sign({ groups: [], issuedAt: now() }));
    expect((await fresh.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.SUBSCRIBER);
    expect((await userByEmail(cms, 'ada@example.test'))?.role).toBe(ROLES.SUBSCRIBER);
  });

  it('syncRoles true never demotes the last enabled Admin', async () => {
    const { gateway, cms, clock, now } = await gatewaySite(dialect, { syncRoles: true, defaultRole: ROLES.AUTHOR });
    const admin = new GatewayBrowser(cms, await gateway.sign({ email: 'owner@example.test', issuedAt: now() }));
    expect((await admin.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.ADMIN);
    clock.advance(10 * MINUTE);
    admin.token = await gateway.sign({ email: 'owner@example.test', issuedAt: now() });
    expect((await admin.call('GET', '/auth/me')).body.data.user.role).toBe(ROLES.ADMIN);
  });

  it('autoProvision false: an unknown address is refused with EDGE_ACCESS_USER_NOT_AUTHORIZED; a known one signs in', async () => {
    const { gateway, cms } = await gatewaySite(dialect, { autoProvision: false }, true);
    const stranger = await new GatewayBrowser(cms, await gateway.sign({ email: 'nobody@example.test' })).call(
      'GET',
      '/auth/me',
    );
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.code).toBe('EDGE_ACCESS_USER_NOT_AUTHORIZED');
    expect(await userByEmail(cms, 'nobody@example.test')).toBeUndefined();

    await cms.services.users.create(null, { email: 'known@example.test', role: ROLES.EDITOR });
    const known = await new GatewayBrowser(cms, await gateway.sign({ email: 'KNOWN@example.test' })).call(
      'GET',
      '/auth/me',
    );
    expect(known.status).toBe(200);
    expect(known.body.data.user.role).toBe(ROLES.EDITOR);
  });

  it('autoProvision false refuses even the first user of an empty site', async () => {
    const { gateway, cms } = await gatewaySite(dialect, { autoProvision: false });
    const res = await new GatewayBrowser(cms, await gateway.sign()).call('GET', '/auth/me');
    expect(res.body.error.code).toBe('EDGE_ACCESS_USER_NOT_AUTHORIZED');
    expect(await cms.services.users.count()).toBe(0);
  });

  it('keeps a disabled user out, with a valid token and with an open session', async () => {
    const { gateway, cms } = await gatewaySite(dialect, {}, true);
    const browser = new GatewayBrowser(cms, await gateway.sign({ email: 'gone@example.test' }));
    const me = await browser.call('GET', '/auth/me');
    await cms.services.users.admin.disable(systemActor, me.body.data.user.id);
    const refused = await browser.call('GET', '/auth/me');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const fresh = await new GatewayBrowser(cms, await gateway.sign({ email: 'gone@example.test' })).call(
      'GET',
      '/auth/me',
    );
    expect(fresh.status).toBe(403);
  });

  it("follows the token, not the cookie: another person's session cookie is replaced by the token's user", async () => {
    const { gateway, cms } = await gatewaySite(dialect, {}, true);
    const ada = new GatewayBrowser(cms, await gateway.sign({ email: 'ada@example.test' }));
    expect((await ada.call('GET', '/auth/me')).status).toBe(200);
    const adaCookie = ada.cookie;
    ada.token = await gateway.sign({ email: 'bob@example.test' });
    const bob = await ada.call('GET', '/auth/me');
    expect(bob.body.data.user.email).toBe('bob@example.test');
    expect(ada.cookie).not.toBe(adaCookie);
  });

  it('creates one user when the first requests of a person arrive at once, and only one first Admin', async () => {
    const { gateway, cms } = await gatewaySite(dialect);
    const tokens = await Promise.all(
      ['a', 'b', 'c', 'd'].map((n) => gateway.sign({ email: `${n}@example.test`, groups: [] })),
    );
    const same = await gateway.sign({ email: 'a@example.test' });
    const answers = await Promise.all([
      ...tokens.map((t) => new GatewayBrowser(cms, t).call('GET', '/auth/me')),
      ...[1, 2, 3].map(() => new GatewayBrowser(cms, same).call('GET', '/auth/me')),
    ]);
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const users = await cms.ctx.db.selectFrom('_cms_users').selectAll().execute();
    expect(users.map((u) => u.email).sort()).toEqual([
      'a@example.test',
      'b@example.test',
      'c@example.test',
      'd@example.test',
    ]);
    expect(users.filter((u) => u.role === ROLES.ADMIN)).toHaveLength(1);
  });
});

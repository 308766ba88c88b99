import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { Browser, setupSite } from '../../helpers/session.js';

describeEachDialect('first user setup', (dialect) => {
  it('walks site details → account → passkey, creates an Admin and signs in', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const before = await call(cms, 'GET', '/setup/status');
    expect(before.body.data).toEqual({ needsSetup: true, site: null });

    const { browser, res } = await setupSite(cms, {
      siteTitle: 'Field Notes',
      tagline: 'Short and true',
      email: 'Owner@Example.test',
      name: 'Olive',
      // role is not asked: the first user is always an Admin
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      email: 'owner@example.test',
      name: 'Olive',
      role: 50,
      roleName: 'admin',
    });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^cms_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);

    const me = await browser.call('GET', '/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({
      user: expect.objectContaining({ email: 'owner@example.test', role: 50 }),
      site: { title: 'Field Notes', tagline: 'Short and true', timezone: 'UTC' },
      i18n: { locales: ['en'], defaultLocale: 'en' },
    });
    const passkeys = await browser.call('GET', '/auth/passkeys');
    expect(passkeys.body.data.items).toEqual([expect.objectContaining({ name: 'Laptop', deviceType: 'singleDevice' })]);

    const after = await call(cms, 'GET', '/setup/status');
    expect(after.body.data).toEqual({
      needsSetup: false,
      site: { title: 'Field Notes', tagline: 'Short and true', timezone: 'UTC' },
    });

    // The passkey made during setup signs in again after sign-out.
    expect((await browser.call('POST', '/auth/logout')).body.data).toEqual({ signedOut: true });
    expect((await browser.call('GET', '/auth/me')).status).toBe(401);
    const again = await browser.signInWithPasskey();
    expect(again.status).toBe(200);
    expect((await browser.call('GET', '/auth/me')).body.data.user.email).toBe('owner@example.test');
  });

  it('refuses setup once any user exists', async () => {
    const cms = await testCms(dialect); // has an Admin already
    const status = await call(cms, 'GET', '/setup/status');
    expect(status.body.data.needsSetup).toBe(false);
    const browser = new Browser(cms);
    const res = await browser.call('POST', '/setup/options', {
      body: { siteTitle: 'Hijack', email: 'evil@example.test' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('SETUP_COMPLETE');
  });

  it('lets exactly one of two racing setup completions win', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const a = new Browser(cms);
    const b = new Browser(cms);
    const optsA = await a.call('POST', '/setup/options', { body: { siteTitle: 'A', email: 'a@example.test' } });
    const optsB = await b.call('POST', '/setup/options', { body: { siteTitle: 'B', email: 'b@example.test' } });
    const credA = a.authenticator.register(optsA.body.data.options);
    const credB = b.authenticator.register(optsB.body.data.options);
    const [ra, rb] = await Promise.all([
      a.call('POST', '/setup/complete', { body: { setupToken: optsA.body.data.setupToken, credential: credA } }),
      b.call('POST', '/setup/complete', { body: { setupToken: optsB.body.data.setupToken, credential: credB } }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const loser = ra.status === 409 ? ra : rb;
    expect(loser.body.error.code).toBe('SETUP_COMPLETE');
    expect(await cms.services.users.count()).toBe(1);
    const winner = ra.status === 200 ? 'A' : 'B';
    expect((await call(cms, 'GET', '/setup/status')).body.data.site.title).toBe(winner);
  });

  it('validates the wizard input and needs the setup token it issued', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const browser = new Browser(cms);
    const noTitle = await browser.call('POST', '/setup/options', { body: { siteTitle: '', email: 'x@example.test' } });
    expect(noTitle.status).toBe(400);
    const badEmail = await browser.call('POST', '/setup/options', { body: { siteTitle: 'T', email: 'not-an-email' } });
    expect(badEmail.status).toBe(400);
    const opts = await browser.call('POST', '/setup/options', { body: { siteTitle: 'T', email: 'x@example.test' } });
    const credential = browser.authenticator.register(opts.body.data.options);
    const wrong = await browser.call('POST', '/setup/complete', {
      body: { setupToken: 'not-the-token', credential },
    });
    expect(wrong.status).toBe(400);
    // A credential made for another origin is refused.
    const opts2 = await browser.call('POST', '/setup/options', { body: { siteTitle: 'T', email: 'x@example.test' } });
    const foreign = browser.authenticator.register(opts2.body.data.options, { origin: 'https://evil.example' });
    const refused = await browser.call('POST', '/setup/complete', {
      body: { setupToken: opts2.body.data.setupToken, credential: foreign },
    });
    expect(refused.status).toBe(400);
    expect(await cms.services.users.count()).toBe(0);
  });
});

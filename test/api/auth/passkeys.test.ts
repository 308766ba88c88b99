import { expect, it } from 'vitest';
import { SoftAuthenticator } from '../../helpers/authenticator.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { Browser, setupSite } from '../../helpers/session.js';

describeEachDialect('passkeys', (dialect) => {
  it('adds, renames and removes passkeys, but never the last one', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const { browser } = await setupSite(cms);
    const first = (await browser.call('GET', '/auth/passkeys')).body.data.items[0];

    const last = await browser.call('DELETE', `/auth/passkeys/${first.id}`);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('LAST_PASSKEY');

    const added = await browser.addPasskey('Phone');
    expect(added.status).toBe(201);
    expect(added.body.data.passkey).toMatchObject({ name: 'Phone', lastUsedAt: null });

    const renamed = await browser.call('PUT', `/auth/passkeys/${added.body.data.passkey.id}`, {
      body: { name: 'Work phone' },
    });
    expect(renamed.body.data.passkey.name).toBe('Work phone');
    const blank = await browser.call('PUT', `/auth/passkeys/${first.id}`, { body: { name: '' } });
    expect(blank.status).toBe(400);

    expect((await browser.call('DELETE', `/auth/passkeys/${first.id}`)).body.data).toEqual({ deleted: true });
    const items = (await browser.call('GET', '/auth/passkeys')).body.data.items;
    expect(items.map((p: { name: string }) => p.name)).toEqual(['Work phone']);
    // The removed passkey no longer signs in; the remaining one does.
    await browser.call('POST', '/auth/logout');
    const removed = await browser.signInWithPasskey({ credentialId: browser.authenticator.credentials[0].id });
    expect(removed.status).toBe(401);
    expect((await browser.signInWithPasskey()).status).toBe(200);
    expect((await browser.call('DELETE', `/auth/passkeys/${added.body.data.passkey.id}`)).body.error.code).toBe(
      'LAST_PASSKEY',
    );
  });

  it('allows at most 10 passkeys per user', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const { browser } = await setupSite(cms);
    for (let i = 2; i <= 10; i++) expect((await browser.addPasskey(`Key ${i}`)).status).toBe(201);
    const options = await browser.call('POST', '/auth/passkeys/options', { body: {} });
    expect(options.status).toBe(409);
    expect(options.body.error.code).toBe('PASSKEY_LIMIT');
    expect((await browser.call('GET', '/auth/passkeys')).body.data.items).toHaveLength(10);
  });

  it('refuses the 11th passkey even when its options were fetched before the 10th was added', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const { browser } = await setupSite(cms);
    for (let i = 2; i <= 9; i++) expect((await browser.addPasskey()).status).toBe(201);
    const early = await browser.call('POST', '/auth/passkeys/options', { body: {} });
    expect((await browser.addPasskey()).status).toBe(201); // the 10th
    const credential = browser.authenticator.register(early.body.data.options);
    const eleventh = await browser.call('POST', '/auth/passkeys', {
      body: { challengeId: early.body.data.challengeId, credential },
    });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.error.code).toBe('PASSKEY_LIMIT');
  });

  it('refuses a replayed or cloned signature counter', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const { browser } = await setupSite(cms);
    expect((await browser.signInWithPasskey()).status).toBe(200); // counter 1
    expect((await browser.signInWithPasskey()).status).toBe(200); // counter 2
    const replay = await browser.signInWithPasskey({ counter: 2 });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('UNAUTHORIZED');
    expect(replay.body.error.message).toMatch(/counter/);
    const older = await browser.signInWithPasskey({ counter: 1 });
    expect(older.status).toBe(401);
    expect((await browser.signInWithPasskey({ counter: 7 })).status).toBe(200);
  });

  it('accepts authenticators that keep no counter (always 0)', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const browser = new Browser(
      cms,
      new SoftAuthenticator(new URL(cms.config.publicUrl).origin, { counter: false, synced: true }),
    );
    const opts = await browser.call('POST', '/setup/options', { body: { siteTitle: 'S', email: 'o@example.test' } });
    const credential = browser.authenticator.register(opts.body.data.options);
    await browser.call('POST', '/setup/complete', { body: { setupToken: opts.body.data.setupToken, credential } });
    expect((await browser.call('GET', '/auth/passkeys')).body.data.items[0]).toMatchObject({
      deviceType: 'multiDevice',
      backedUp: true,
    });
    expect((await browser.signInWithPasskey()).status).toBe(200);
    expect((await browser.signInWithPasskey()).status).toBe(200);
  });

  it('binds passkeys to the configured public origin and RP ID (reverse proxy)', async () => {
    const cms = await testCms(dialect, {
      withAdmin: false,
      config: { publicUrl: 'https://cms.example.com' },
    });
    const { browser, res } = await setupSite(cms);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/Secure/);
    const opts = await browser.call('POST', '/auth/passkey/options', { body: {} });
    expect(opts.body.data.options.rpId).toBe('cms.example.com');
    // A phishing origin cannot use the assertion.
    const phished = await browser.signInWithPasskey({ origin: 'https://cms.example.com.evil.test' });
    expect(phished.status).toBe(401);
    expect(phished.body.error.message).toMatch(/origin/i);
    // Nor a passkey made for another RP ID.
    const other = new Browser(cms);
    const addOpts = await browser.call('POST', '/auth/passkeys/options', { body: {} });
    expect(addOpts.body.data.options.rp).toMatchObject({ id: 'cms.example.com' });
    expect(addOpts.body.data.options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'preferred',
    });
    const foreign = other.authenticator.register(addOpts.body.data.options, { rpId: 'example.org' });
    const added = await browser.call('POST', '/auth/passkeys', {
      body: { challengeId: addOpts.body.data.challengeId, credential: foreign },
    });
    expect(added.status).toBe(400);
  });

  it('uses each sign-in challenge once and refuses unknown passkeys', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const { browser } = await setupSite(cms);
    const opts = await browser.call('POST', '/auth/passkey/options', { body: {} });
    expect(opts.body.data.options.allowCredentials ?? []).toEqual([]); // discoverable
    expect(opts.body.data.options.userVerification).toBe('preferred');
    const credential = browser.authenticator.assert(opts.body.data.options);
    const body = { challengeId: opts.body.data.challengeId, credential };
    expect((await browser.call('POST', '/auth/passkey/verify', { body })).status).toBe(200);
    expect((await browser.call('POST', '/auth/passkey/verify', { body })).status).toBe(400);

    // A passkey this site never registered (made for the same RP ID elsewhere).
    const stranger = new Browser(cms);
    stranger.authenticator.register({
      challenge: 'AAAA',
      rp: { id: new URL(cms.config.publicUrl).hostname, name: 'elsewhere' },
      user: { id: 'dXNlcg', name: 'someone', displayName: 'someone' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    });
    const o2 = await stranger.call('POST', '/auth/passkey/options', { body: {} });
    const unknown = await stranger.call('POST', '/auth/passkey/verify', {
      body: { challengeId: o2.body.data.challengeId, credential: stranger.authenticator.assert(o2.body.data.options) },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toMatch(/not registered/);
  });

  it('expires sign-in challenges after 5 minutes', async () => {
    const { ManualClock } = await import('../../../src/core/clock.js');
    const clock = new ManualClock();
    const cms = await testCms(dialect, { withAdmin: false, clock });
    const { browser } = await setupSite(cms);
    const opts = await browser.call('POST', '/auth/passkey/options', { body: {} });
    clock.advance(5 * 60_000 + 1);
    const credential = browser.authenticator.assert(opts.body.data.options);
    const late = await browser.call('POST', '/auth/passkey/verify', {
      body: { challengeId: opts.body.data.challengeId, credential },
    });
    expect(late.status).toBe(400);
  });

  it('keeps passkey management to signed-in sessions, never API tokens', async () => {
    const cms = await testCms(dialect);
    const list = await call(cms, 'GET', '/auth/passkeys', { token: cms.adminToken });
    expect(list.status).toBe(200);
    const add = await call(cms, 'POST', '/auth/passkeys/options', { token: cms.adminToken, body: {} });
    expect(add.status).toBe(403);
    expect((await call(cms, 'GET', '/auth/passkeys')).status).toBe(401);
  });
});

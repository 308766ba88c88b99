import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { Browser } from '../../helpers/session.js';
import { linkToken, SmtpSink } from '../../helpers/smtp.js';

const sinks: SmtpSink[] = [];
afterEach(async () => {
  while (sinks.length) await sinks.pop()!.close();
});

async function site(dialect: 'sqlite' | 'postgres', clock?: ManualClock) {
  const sink = await new SmtpSink().start();
  sinks.push(sink);
  const cms = await testCms(dialect, { clock, config: { email: { provider: 'smtp', url: sink.url } } });
  return { cms, sink };
}

async function complete(browser: Browser, token: string, name?: string) {
  const opts = await browser.call('POST', '/auth/signup/options', { body: { token } });
  if (opts.status !== 200) return opts;
  const credential = browser.authenticator.register(opts.body.data.options);
  return browser.call('POST', '/auth/signup/complete', {
    body: { token, challengeId: opts.body.data.challengeId, credential, name },
  });
}

describeEachDialect('allowed domains', (dialect) => {
  it('are managed by Admins with a default role of at most Editor', async () => {
    const cms = await testCms(dialect);
    const admin = { token: cms.adminToken };
    const made = await call(cms, 'POST', '/admin/allowed-domains', {
      ...admin,
      body: { domain: 'Example.COM', defaultRole: 20 },
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      domain: 'example.com',
      defaultRole: 20,
      defaultRoleName: 'contributor',
      enabled: true,
    });
    const dup = await call(cms, 'POST', '/admin/allowed-domains', {
      ...admin,
      body: { domain: 'example.com', defaultRole: 10 },
    });
    expect(dup.status).toBe(409);
    for (const body of [
      { domain: 'example.org', defaultRole: 50 },
      { domain: 'not a domain', defaultRole: 10 },
      { domain: 'localhost', defaultRole: 10 },
    ]) {
      expect((await call(cms, 'POST', '/admin/allowed-domains', { ...admin, body })).status, body.domain).toBe(400);
    }
    const updated = await call(cms, 'PUT', '/admin/allowed-domains/example.com', {
      ...admin,
      body: { defaultRole: 40, enabled: false },
    });
    expect(updated.body.data).toMatchObject({ defaultRole: 40, enabled: false });
    expect(
      (await call(cms, 'PUT', '/admin/allowed-domains/example.com', { ...admin, body: { defaultRole: 50 } })).status,
    ).toBe(400);
    expect((await call(cms, 'GET', '/admin/allowed-domains', admin)).body.data.items).toHaveLength(1);
    const { token: editor } = await cms.userToken(40);
    expect((await call(cms, 'GET', '/admin/allowed-domains', { token: editor })).status).toBe(403);
    expect((await call(cms, 'DELETE', '/admin/allowed-domains/example.com', admin)).body.data).toEqual({
      deleted: true,
    });
    expect((await call(cms, 'DELETE', '/admin/allowed-domains/example.com', admin)).status).toBe(404);
  });
});

describeEachDialect('sign-up with an allowed domain', (dialect) => {
  it('verifies the address by mail, then creates the account with the default role and a passkey', async () => {
    const { cms, sink } = await site(dialect);
    await call(cms, 'POST', '/admin/allowed-domains', {
      token: cms.adminToken,
      body: { domain: 'team.example', defaultRole: 30 },
    });
    expect((await call(cms, 'GET', '/auth/methods')).body.data).toEqual({
      mode: 'default',
      passkey: true,
      magicLink: true,
      signup: true,
    });
    const browser = new Browser(cms);
    const req = await browser.call('POST', '/auth/signup/request', { body: { email: 'Sam@Team.example' } });
    expect(req.body.data).toEqual({ sent: true });
    const mail = await sink.next('sam@team.example');
    expect(mail.raw).toMatch(/^Subject: Confirm your email/m);
    const token = linkToken(mail, 'signup');

    expect((await call(cms, 'GET', `/auth/signup/${token}`)).body.data).toEqual({
      email: 'sam@team.example',
      role: 30,
      roleName: 'author',
    });
    const res = await complete(browser, token, 'Sam');
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: 'sam@team.example', name: 'Sam', role: 30 });
    expect((await browser.call('GET', '/auth/me')).status).toBe(200);
    expect((await complete(new Browser(cms), token)).status).toBe(404);
  });

  it('answers sent: true for other domains and known addresses, mailing nothing', async () => {
    const { cms, sink } = await site(dialect);
    await call(cms, 'POST', '/admin/allowed-domains', {
      token: cms.adminToken,
      body: { domain: 'example.test', defaultRole: 10 },
    });
    const browser = new Browser(cms);
    for (const email of ['someone@elsewhere.test', 'admin@example.test']) {
      expect((await browser.call('POST', '/auth/signup/request', { body: { email } })).body.data).toEqual({
        sent: true,
      });
    }
    await browser.call('POST', '/auth/signup/request', { body: { email: 'fresh@example.test' } });
    await sink.next('fresh@example.test');
    expect(sink.mails).toEqual([]);
  });

  it('expires the verification link after 24 hours and stops when the domain is closed', async () => {
    const clock = new ManualClock();
    const { cms, sink } = await site(dialect, clock);
    await call(cms, 'POST', '/admin/allowed-domains', {
      token: cms.adminToken,
      body: { domain: 'example.test', defaultRole: 10 },
    });
    const browser = new Browser(cms);
    await browser.call('POST', '/auth/signup/request', { body: { email: 'one@example.test' } });
    const one = linkToken(await sink.next('one@example.test'), 'signup');
    clock.advance(24 * 3600_000);
    expect((await call(cms, 'GET', `/auth/signup/${one}`)).status).toBe(404);
    expect((await complete(browser, one)).status).toBe(404);

    await browser.call('POST', '/auth/signup/request', { body: { email: 'two@example.test' } });
    const two = linkToken(await sink.next('two@example.test'), 'signup');
    await call(cms, 'PUT', '/admin/allowed-domains/example.test', { token: cms.adminToken, body: { enabled: false } });
    const closed = await complete(browser, two);
    expect(closed.status).toBe(403);
    expect(await cms.services.users.findByEmail('two@example.test')).toBeUndefined();
  });

  it('is unavailable without email', async () => {
    const cms = await testCms(dialect);
    const res = await new Browser(cms).call('POST', '/auth/signup/request', { body: { email: 'a@example.test' } });
    expect(res.body.error.code).toBe('EMAIL_NOT_CONFIGURED');
  });
});

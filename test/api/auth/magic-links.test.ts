import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { sha256Hex } from '../../../src/core/ids.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { Browser } from '../../helpers/session.js';
import { linkToken, SmtpSink } from '../../helpers/smtp.js';

const sinks: SmtpSink[] = [];
afterEach(async () => {
  while (sinks.length) await sinks.pop()!.close();
});

async function withMail(dialect: 'sqlite' | 'postgres', clock?: ManualClock) {
  const sink = await new SmtpSink().start();
  sinks.push(sink);
  const cms = await testCms(dialect, {
    clock,
    config: { email: { provider: 'smtp', url: sink.url, from: 'CMS <cms@example.test>' } },
  });
  return { cms, sink };
}

describeEachDialect('magic links', (dialect) => {
  it('mails a link over SMTP; only the POST of the confirmation page consumes it', async () => {
    const { cms, sink } = await withMail(dialect);
    const browser = new Browser(cms);
    const sent = await browser.call('POST', '/auth/magic-link/send', { body: { email: 'Admin@Example.test' } });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ sent: true });

    const mail = await sink.next('admin@example.test');
    expect(mail.raw).toMatch(/^Subject: Sign in to CMS/m);
    expect(mail.raw).toMatch(/^From: CMS <cms@example.test>/m);
    const token = linkToken(mail, 'magic-link');
    expect(mail.text).toContain(`${cms.config.publicUrl}/_cms/admin/magic-link?token=${token}`);
    // Only the hash is stored.
    const rows = await cms.ctx.db.selectFrom('_cms_magic_links').selectAll().execute();
    expect(rows.map((r) => r.token_hash)).toEqual([sha256Hex(token)]);

    // A link scanner GETs the link (the admin page) and any API URL it guesses: nothing is consumed.
    await cms.app.request(`/_cms/admin/magic-link?token=${token}`);
    expect((await call(cms, 'GET', `/auth/magic-link/consume?token=${token}`)).status).toBe(405);
    expect(await cms.ctx.db.selectFrom('_cms_magic_links').selectAll().execute()).toHaveLength(1);

    const consumed = await browser.call('POST', '/auth/magic-link/consume', { body: { token } });
    expect(consumed.status).toBe(200);
    expect(consumed.body.data.user).toMatchObject({ email: 'admin@example.test', role: 50 });
    expect((await browser.call('GET', '/auth/me')).status).toBe(200);

    // Deleted after use: the same link works once.
    expect(await cms.ctx.db.selectFrom('_cms_magic_links').selectAll().execute()).toHaveLength(0);
    const twice = await new Browser(cms).call('POST', '/auth/magic-link/consume', { body: { token } });
    expect(twice.status).toBe(404);
  });

  it('answers sent: true for unknown and disabled addresses without mailing anything', async () => {
    const { cms, sink } = await withMail(dialect);
    const { userId } = await cms.userToken(20);
    const disabled = await cms.services.users.get(userId);
    await call(cms, 'POST', `/admin/users/${userId}/disable`, { token: cms.adminToken });
    const browser = new Browser(cms);
    for (const email of ['nobody@example.test', disabled.email]) {
      const res = await browser.call('POST', '/auth/magic-link/send', { body: { email } });
      expect(res.body.data).toEqual({ sent: true });
    }
    await browser.call('POST', '/auth/magic-link/send', { body: { email: 'admin@example.test' } });
    await sink.next('admin@example.test');
    expect(sink.mails).toEqual([]);
  });

  it('expires after 15 minutes (injected clock)', async () => {
    const clock = new ManualClock();
    const { cms, sink } = await withMail(dialect, clock);
    const browser = new Browser(cms);
    await browser.call('POST', '/auth/magic-link/send', { body: { email: 'admin@example.test' } });
    const first = linkToken(await sink.next('admin@example.test'), 'magic-link');
    clock.advance(15 * 60_000 - 1);
    expect((await browser.call('POST', '/auth/magic-link/consume', { body: { token: first } })).status).toBe(200);

    clock.advance(6 * 60_000); // a new window for the rate limit is not needed: no IP is known in-process
    await browser.call('POST', '/auth/magic-link/send', { body: { email: 'admin@example.test' } });
    const second = linkToken(await sink.next('admin@example.test'), 'magic-link');
    clock.advance(15 * 60_000);
    const late = await browser.call('POST', '/auth/magic-link/consume', { body: { token: second } });
    expect(late.status).toBe(404);
    expect(late.body.error.code).toBe('NOT_FOUND');
  });

  it('needs a configured email provider', async () => {
    const cms = await testCms(dialect);
    const res = await new Browser(cms).call('POST', '/auth/magic-link/send', { body: { email: 'admin@example.test' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('EMAIL_NOT_CONFIGURED');
    expect((await call(cms, 'GET', '/auth/methods')).body.data).toEqual({
      mode: 'default',
      passkey: true,
      magicLink: false,
      signup: false,
    });
  });
});

describeEachDialect('recovery links', (dialect) => {
  it('are mailed by an Admin when email is configured', async () => {
    const { cms, sink } = await withMail(dialect);
    const { userId } = await cms.userToken(30);
    const user = await cms.services.users.get(userId);
    const res = await call(cms, 'POST', `/admin/users/${userId}/recovery-link`, { token: cms.adminToken });
    expect(res.body.data).toEqual({ emailed: true, link: null });
    const mail = await sink.next(user.email);
    expect(mail.raw).toMatch(/^Subject: Recover your access/m);
    const token = linkToken(mail, 'magic-link');
    const browser = new Browser(cms);
    const signed = await browser.call('POST', '/auth/magic-link/consume', { body: { token } });
    expect(signed.body.data.user).toMatchObject({ id: userId, role: 30 });
    // The recovered user adds a new passkey from the session.
    expect((await browser.addPasskey('New laptop')).status).toBe(201);
  });

  it('are returned to copy when email is not configured, and only Admins may make them', async () => {
    const cms = await testCms(dialect);
    const { userId, token: editorToken } = await cms.userToken(40);
    const res = await call(cms, 'POST', `/admin/users/${userId}/recovery-link`, { token: cms.adminToken });
    expect(res.body.data.emailed).toBe(false);
    expect(res.body.data.link).toMatch(/\/_cms\/admin\/magic-link\?token=[A-Za-z0-9_-]{43}$/);
    const denied = await call(cms, 'POST', `/admin/users/${cms.adminId}/recovery-link`, { token: editorToken });
    expect(denied.status).toBe(403);
    expect((await call(cms, 'POST', '/admin/users/nope/recovery-link', { token: cms.adminToken })).status).toBe(404);
  });
});

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

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function accept(browser: Browser, token: string, name?: string) {
  const opts = await browser.call('POST', '/auth/invite/options', { body: { token } });
  if (opts.status !== 200) return opts;
  const credential = browser.authenticator.register(opts.body.data.options);
  return browser.call('POST', '/auth/invite/accept', {
    body: { token, challengeId: opts.body.data.challengeId, credential, name },
  });
}

describeEachDialect('invites', (dialect) => {
  it('returns the link when email is not configured; the invitee makes an account with a passkey', async () => {
    const cms = await testCms(dialect);
    const made = await call(cms, 'POST', '/admin/invites', {
      token: cms.adminToken,
      body: { email: 'New@Example.test', role: 30 },
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      emailed: false,
      invite: { email: 'new@example.test', role: 30, roleName: 'author', invitedBy: { id: cms.adminId } },
    });
    const token = tokenOf(made.body.data.link);
    expect(made.body.data.link).toBe(`${cms.config.publicUrl}/_cms/admin/invite?token=${token}`);
    const stored = await cms.ctx.db.selectFrom('_cms_invites').select('token_hash').execute();
    expect(stored).toEqual([{ token_hash: sha256Hex(token) }]);

    const list = await call(cms, 'GET', '/admin/invites', { token: cms.adminToken });
    expect(list.body.data.items).toHaveLength(1);

    const lookup = await call(cms, 'GET', `/auth/invite/${token}`);
    expect(lookup.body.data).toEqual({ email: 'new@example.test', role: 30, roleName: 'author', siteTitle: 'CMS' });

    const browser = new Browser(cms);
    const res = await accept(browser, token, 'Nia');
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: 'new@example.test', name: 'Nia', role: 30 });
    expect((await browser.call('GET', '/auth/me')).body.data.user.role).toBe(30);
    expect((await browser.call('GET', '/auth/passkeys')).body.data.items).toHaveLength(1);
    // The passkey signs in later.
    await browser.call('POST', '/auth/logout');
    expect((await browser.signInWithPasskey()).status).toBe(200);

    // Single use.
    expect((await call(cms, 'GET', `/auth/invite/${token}`)).status).toBe(404);
    expect((await accept(new Browser(cms), token)).status).toBe(404);
    expect((await call(cms, 'GET', '/admin/invites', { token: cms.adminToken })).body.data.items).toEqual([]);
  });

  it('mails the invite over SMTP when email is configured', async () => {
    const sink = await new SmtpSink().start();
    sinks.push(sink);
    const cms = await testCms(dialect, { config: { email: { provider: 'smtp', url: sink.url } } });
    const made = await call(cms, 'POST', '/admin/invites', {
      token: cms.adminToken,
      body: { email: 'mailed@example.test', role: 40 },
    });
    expect(made.body.data).toMatchObject({ emailed: true, link: null });
    const mail = await sink.next('mailed@example.test');
    expect(mail.raw).toMatch(/^Subject: You are invited to CMS/m);
    expect(mail.text).toContain('as editor');
    const res = await accept(new Browser(cms), linkToken(mail, 'invite'));
    expect(res.body.data.user).toMatchObject({ email: 'mailed@example.test', role: 40 });
  });

  it('expires after 7 days (injected clock)', async () => {
    const clock = new ManualClock();
    const cms = await testCms(dialect, { clock });
    const invite = async (email: string) =>
      tokenOf(
        (await call(cms, 'POST', '/admin/invites', { token: cms.adminToken, body: { email, role: 20 } })).body.data
          .link,
      );
    const early = await invite('early@example.test');
    const late = await invite('late@example.test');
    clock.advance(7 * 24 * 3600_000 - 1000);
    expect((await accept(new Browser(cms), early)).status).toBe(200);
    clock.advance(1000);
    expect((await call(cms, 'GET', `/auth/invite/${late}`)).status).toBe(404);
    expect((await accept(new Browser(cms), late)).status).toBe(404);
    expect((await call(cms, 'GET', '/admin/invites', { token: cms.adminToken })).body.data.items).toEqual([]);
  });

  it('is for Admins, for new addresses, and a re-invite replaces the old link', async () => {
    const cms = await testCms(dialect);
    const { token: editor } = await cms.userToken(40);
    const denied = await call(cms, 'POST', '/admin/invites', {
      token: editor,
      body: { email: 'x@example.test', role: 10 },
    });
    expect(denied.status).toBe(403);
    const existing = await call(cms, 'POST', '/admin/invites', {
      token: cms.adminToken,
      body: { email: 'admin@example.test', role: 10 },
    });
    expect(existing.status).toBe(409);
    const badRole = await call(cms, 'POST', '/admin/invites', {
      token: cms.adminToken,
      body: { email: 'x@example.test', role: 60 },
    });
    expect(badRole.status).toBe(400);

    const first = tokenOf(
      (
        await call(cms, 'POST', '/admin/invites', {
          token: cms.adminToken,
          body: { email: 'x@example.test', role: 10 },
        })
      ).body.data.link,
    );
    const second = await call(cms, 'POST', '/admin/invites', {
      token: cms.adminToken,
      body: { email: 'x@example.test', role: 20 },
    });
    expect((await call(cms, 'GET', `/auth/invite/${first}`)).status).toBe(404);
    const withdrawn = await call(cms, 'DELETE', `/admin/invites/${second.body.data.invite.id}`, {
      token: cms.adminToken,
    });
    expect(withdrawn.body.data).toEqual({ deleted: true });
    expect((await call(cms, 'GET', `/auth/invite/${tokenOf(second.body.data.link)}`)).status).toBe(404);
  });

  it('binds the passkey ceremony to its invite', async () => {
    const cms = await testCms(dialect);
    const mk = async (email: string) =>
      tokenOf(
        (await call(cms, 'POST', '/admin/invites', { token: cms.adminToken, body: { email, role: 10 } })).body.data
          .link,
      );
    const a = await mk('a@example.test');
    const b = await mk('b@example.test');
    const browser = new Browser(cms);
    const opts = await browser.call('POST', '/auth/invite/options', { body: { token: a } });
    const credential = browser.authenticator.register(opts.body.data.options);
    const swapped = await browser.call('POST', '/auth/invite/accept', {
      body: { token: b, challengeId: opts.body.data.challengeId, credential },
    });
    expect(swapped.status).toBe(400);
    expect(await cms.services.users.findByEmail('b@example.test')).toBeUndefined();
  });
});

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig, resolveConfig } from '../../../src/core/config.js';
import { createLogger } from '../../../src/core/log.js';
import { createEmailProvider } from '../../../src/services/auth/email.js';

describe('email configuration and providers', () => {
  it('is off unless configured; the sender defaults to no-reply at the public host', () => {
    expect(resolveConfig({}).email).toBeNull();
    expect(resolveConfig({ publicUrl: 'https://cms.example.com', email: { provider: 'log' } }).email).toEqual({
      provider: 'log',
      from: 'CMS <no-reply@cms.example.com>',
    });
    expect(
      resolveConfig({ email: { provider: 'smtp', url: 'smtps://u:p@mail.example.com:465', from: 'a@b.c' } }).email,
    ).toEqual({ provider: 'smtp', url: 'smtps://u:p@mail.example.com:465', from: 'a@b.c' });
    expect(() => resolveConfig({ email: { provider: 'smtp', url: 'http://x' } as never })).toThrow(/email\.url/);
    expect(() => resolveConfig({ email: { provider: 'carrier-pigeon' } as never })).toThrow(/email/);
  });

  it('reads CMS_SMTP_URL, CMS_EMAIL_PROVIDER and CMS_EMAIL_FROM', () => {
    const cwd = '/nonexistent-dir-for-config-test';
    expect(
      loadConfig({ CMS_SMTP_URL: 'smtp://127.0.0.1:2525', CMS_EMAIL_FROM: 'Site <s@example.com>' }, cwd).email,
    ).toEqual({
      provider: 'smtp',
      url: 'smtp://127.0.0.1:2525',
      from: 'Site <s@example.com>',
    });
    expect(loadConfig({ CMS_EMAIL_PROVIDER: 'log' }, cwd).email).toMatchObject({ provider: 'log' });
    expect(() => loadConfig({ CMS_SMTP_URL: 'ftp://x' }, cwd)).toThrow(/CMS_SMTP_URL/);
  });

  it('the log provider writes the whole message (with its link) to the log', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const provider = createEmailProvider(
      { provider: 'log', from: 'CMS <cms@example.test>' },
      createLogger('info', sink),
    );
    await provider!.send({
      to: 'a@example.test',
      subject: 'Hi',
      text: 'open https://x/_cms/admin/magic-link?token=t',
      html: '<p>x</p>',
    });
    const entry = JSON.parse(lines[0]);
    expect(entry.msg).toBe('email (log provider)');
    expect(entry.email).toMatchObject({ to: 'a@example.test', subject: 'Hi', from: 'CMS <cms@example.test>' });
    expect(entry.email.text).toContain('magic-link?token=t');
    expect(createEmailProvider(null, createLogger('silent'))).toBeNull();
  });
});

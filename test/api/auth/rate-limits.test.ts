import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { listen } from '../../../src/http/server.js';
import { createCms } from '../../../src/index.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

const H = { 'x-cms-request': '1' };
const passkeyOptions = (cms: Parameters<typeof call>[0], headers: Record<string, string> = {}) =>
  call(cms, 'POST', '/auth/passkey/options', { body: {}, headers: { ...H, ...headers } });

describeEachDialect('authentication rate limits', (dialect) => {
  it('count per trusted client IP and answer 429 with Retry-After', async () => {
    const clock = new ManualClock('2026-01-01T00:00:10.000Z');
    const cms = await testCms(dialect, { clock, config: { trustedProxyHeaders: ['x-forwarded-for'] } });
    for (let i = 0; i < 10; i++) {
      expect((await passkeyOptions(cms, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
    }
    const limited = await passkeyOptions(cms, { 'x-forwarded-for': '203.0.113.7' });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    // All ten were accepted at 00:00:10; the window slides, so the first slot frees at 00:01:10.
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.body.error.details).toMatchObject({ retryAfter: 60, limit: 10, windowSeconds: 60 });

    // Another client is not affected; the right-most hop (set by our proxy) is the client.
    expect((await passkeyOptions(cms, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
    expect((await passkeyOptions(cms, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' })).status).toBe(429);
    expect((await passkeyOptions(cms, { 'x-forwarded-for': '203.0.113.7, 198.51.100.1' })).status).toBe(200);

    clock.advance(59_999);
    const almost = await passkeyOptions(cms, { 'x-forwarded-for': '203.0.113.7' });
    expect(almost.status).toBe(429);
    expect(almost.headers.get('retry-after')).toBe('1');
    clock.advance(1);
    expect((await passkeyOptions(cms, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
  });

  it('limit magic-link and sign-up requests to 3 per 5 minutes', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const cms = await testCms(dialect, {
      clock,
      config: { trustedProxyHeaders: ['cf-connecting-ip'], email: { provider: 'log' } },
    });
    for (const path of ['/auth/magic-link/send', '/auth/signup/request']) {
      const send = () =>
        call(cms, 'POST', path, {
          body: { email: 'someone@example.test' },
          headers: { ...H, 'cf-connecting-ip': '2001:db8:1:2::99' },
        });
      for (let i = 0; i < 3; i++) expect((await send()).status, path).toBe(200);
      const res = await send();
      expect(res.status, path).toBe(429);
      expect(res.headers.get('retry-after')).toBe('300');
      // Another address of the same IPv6 /64 counts as the same client.
      const sibling = await call(cms, 'POST', path, {
        body: { email: 'someone@example.test' },
        headers: { ...H, 'cf-connecting-ip': '2001:db8:1:2:ffff::1' },
      });
      expect(sibling.status).toBe(429);
    }
    clock.advance(5 * 60_000);
    expect(
      (
        await call(cms, 'POST', '/auth/magic-link/send', {
          body: { email: 'someone@example.test' },
          headers: { ...H, 'cf-connecting-ip': '2001:db8:1:2::99' },
        })
      ).status,
    ).toBe(200);
  });

  it('skip the per-IP check when no trusted IP is known, ignoring an untrusted X-Forwarded-For', async () => {
    const cms = await testCms(dialect); // no trustedProxyHeaders; app.request() has no socket
    for (let i = 0; i < 15; i++) {
      expect((await passkeyOptions(cms, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
    }
    expect(await cms.ctx.db.selectFrom('_cms_rate_hits').selectAll().execute()).toEqual([]);
  });

  it('use the socket address and ignore a forged X-Forwarded-For (real server)', async () => {
    // A fixed clock: a real one could cross a window boundary in the middle of the test.
    const cms = await testCms(dialect, { clock: new ManualClock('2026-01-01T00:00:10.000Z') });
    const server = await listen(cms, 0, '127.0.0.1');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await fetch(`${server.url}/_cms/api/auth/passkey/options`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...H, 'x-forwarded-for': `198.51.100.${i}` },
          body: '{}',
        });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
      expect(statuses[10]).toBe(429);
      // Only accepted requests are logged.
      const rows = await cms.ctx.db.selectFrom('_cms_rate_hits').select('key').execute();
      expect(rows).toEqual(Array(10).fill({ key: 'passkeyOptions|127.0.0.1' }));
    } finally {
      await server.stop();
    }
  });

  it('hold across processes sharing the database', async () => {
    const clock = new ManualClock('2026-01-01T00:00:10.000Z');
    const cms = await testCms(dialect, { clock, config: { trustedProxyHeaders: ['x-real-ip'] } });
    const other = await createCms({
      config: cms.config,
      database: cms.database,
      migrate: false,
      scheduler: false,
      logger: cms.log,
      clock,
    });
    for (let i = 0; i < 10; i++) {
      const target = i % 2 ? cms : other;
      expect((await passkeyOptions(target, { 'x-real-ip': '192.0.2.5' })).status).toBe(200);
    }
    expect((await passkeyOptions(other, { 'x-real-ip': '192.0.2.5' })).status).toBe(429);
    expect((await passkeyOptions(cms, { 'x-real-ip': '192.0.2.5' })).status).toBe(429);
  });

  it('offer the OAuth endpoint limits as reusable rules', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    const facts = { socketAddress: '192.0.2.9', header: () => undefined };
    for (const [rule, limit] of [
      ['oauthDeviceCode', 10],
      ['oauthDeviceToken', 12],
      ['oauthRegister', 10],
    ] as const) {
      for (let i = 0; i < limit; i++) await cms.services.auth.rateLimit(rule, facts);
      await expect(cms.services.auth.rateLimit(rule, facts)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    }
  });
});

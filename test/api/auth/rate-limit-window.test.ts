import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call, peerCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

const H = { 'x-cms-request': '1' };
const facts = (ip: string) => ({ socketAddress: ip, header: () => undefined });

describeEachDialect('rate limits slide (no window boundary to exploit)', (dialect) => {
  it('lets 10 registrations through in 2 s across a minute boundary, not 20', async () => {
    const clock = new ManualClock('2026-01-01T00:00:59.000Z');
    const cms = await testCms(dialect, { clock });
    const register = async () => {
      try {
        await cms.services.auth.rateLimit('oauthRegister', facts('192.0.2.1'));
        return 'ok';
      } catch (err) {
        return (err as { code: string }).code;
      }
    };
    const before = [];
    for (let i = 0; i < 10; i++) before.push(await register());
    clock.set('2026-01-01T00:01:00.500Z'); // a fixed window would start afresh here
    const after = [];
    for (let i = 0; i < 10; i++) after.push(await register());
    expect(before).toEqual(Array(10).fill('ok'));
    expect(after).toEqual(Array(10).fill('RATE_LIMITED'));
    clock.set('2026-01-01T00:01:58.999Z');
    expect(await register()).toBe('RATE_LIMITED');
    clock.set('2026-01-01T00:01:59.000Z'); // 60 s after the first ten
    expect(await register()).toBe('ok');
  });

  it('frees slots one by one as old requests leave the window, and says when', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const cms = await testCms(dialect, { clock, config: { trustedProxyHeaders: ['x-real-ip'] } });
    const send = () =>
      call(cms, 'POST', '/auth/passkey/options', { body: {}, headers: { ...H, 'x-real-ip': '192.0.2.8' } });
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(200);
    clock.advance(30_000);
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(200);
    clock.advance(15_000);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('15'); // the first five leave at 00:01:00
    clock.set('2026-01-01T00:01:00.000Z');
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(200);
    const again = await send();
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('30');
  });

  it('holds exactly under concurrent requests to two service instances with their own connections', async () => {
    const clock = new ManualClock('2026-01-01T00:00:30.000Z');
    const cms = await testCms(dialect, { clock });
    const other = await peerCms(cms, { clock });
    const attempts = Array.from({ length: 24 }, (_, i) =>
      (i % 2 ? cms : other).services.auth.rateLimit('passkeyOptions', facts('198.51.100.4')).then(
        () => 'ok',
        (err: { code: string }) => err.code,
      ),
    );
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r === 'ok')).toHaveLength(10);
    expect(results.filter((r) => r === 'RATE_LIMITED')).toHaveLength(14);
    const logged = await cms.ctx.db.selectFrom('_cms_rate_hits').select('key').execute();
    expect(logged).toHaveLength(10);
  });
});

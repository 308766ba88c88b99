import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

const H = { 'x-cms-request': '1' };
const ROUNDS = 80;

/** Lower quartile: the machine's noise only ever adds time, so the low end shows the work itself. */
const lowQuartile = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 4)];
};

/** Typical answer time for a known and an unknown address, measured alternately, background work settled in between. */
async function timings(cms: TestCms, path: string, known: string, unknown: string) {
  const once = async (email: string) => {
    const started = performance.now();
    const res = await call(cms, 'POST', path, { body: { email }, headers: H });
    const ms = performance.now() - started;
    expect(res.body.data).toEqual({ sent: true });
    await cms.services.auth.settled();
    return ms;
  };
  for (let i = 0; i < 5; i++) await once(i % 2 ? known : unknown); // warm-up
  const k: number[] = [];
  const u: number[] = [];
  // Each round swaps which address goes first, so both follow the other's background work (the
  // known address's writes and mail leave garbage and database work behind) equally often.
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2) {
      u.push(await once(unknown));
      k.push(await once(known));
    } else {
      k.push(await once(known));
      u.push(await once(unknown));
    }
  }
  return { known: lowQuartile(k), unknown: lowQuartile(u) };
}

/**
 * The ratio of the two typical times, measured up to three times: on a shared machine one
 * measurement of sub-millisecond answers can land outside the bounds by chance (the garbage of one
 * address's background work is collected during the other's request), while a real difference in
 * the work done before answering shows in every attempt.
 */
async function ratio(cms: TestCms, path: string, known: string, unknown: string) {
  let t = await timings(cms, path, known, unknown);
  for (let attempt = 1; attempt < 3 && !within(t.known / t.unknown); attempt++) {
    t = await timings(cms, path, known, unknown);
  }
  return t;
}
const within = (r: number) => r > 0.75 && r < 1.33;

describeEachDialect('magic-link and sign-up answers do not reveal whether an account exists', (dialect) => {
  it('answers a magic-link request for a known address as fast as for an unknown one', async () => {
    const cms = await testCms(dialect, { config: { email: { provider: 'log' } } });
    const t = await ratio(cms, '/auth/magic-link/send', 'admin@example.test', 'nobody@example.test');
    // Before, the known address also wrote the link row and read the site name before answering.
    expect(t.known / t.unknown, JSON.stringify(t)).toBeLessThan(1.33);
    expect(t.known / t.unknown, JSON.stringify(t)).toBeGreaterThan(0.75);
    // The link was still made, after the answer.
    expect(await cms.ctx.db.selectFrom('_cms_magic_links').select('user_id').execute()).toEqual([
      { user_id: cms.adminId },
    ]);
  });

  it('answers a sign-up request for an allowed domain as fast as for any other address', async () => {
    const cms = await testCms(dialect, { config: { email: { provider: 'log' } } });
    const domain = await call(cms, 'POST', '/admin/allowed-domains', {
      token: cms.adminToken,
      body: { domain: 'team.example', defaultRole: 20 },
    });
    expect(domain.status, JSON.stringify(domain.body)).toBe(201);
    const t = await ratio(cms, '/auth/signup/request', 'new@team.example', 'new@elsewhere.example');
    expect(t.known / t.unknown, JSON.stringify(t)).toBeLessThan(1.33);
    expect(t.known / t.unknown, JSON.stringify(t)).toBeGreaterThan(0.75);
    expect(await cms.ctx.db.selectFrom('_cms_signup_requests').select('email').execute()).toEqual([
      { email: 'new@team.example' },
    ]);
  });
});

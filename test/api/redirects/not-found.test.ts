import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { visit } from '../../helpers/public.js';

describeEachDialect('404 log', (dialect) => {
  const log = async (cms: TestCms, query = '') => {
    await cms.services.redirects.flush();
    const res = await call(cms, 'GET', `/redirects/404s${query}`, { token: cms.adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  it('records public GET/HEAD misses by path and referrer with counts and first/last seen', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z');
    const cms = await testCms(dialect, { clock: { now: () => new Date(now) } });
    await visit(cms, '/missing?secret=1', { headers: { referer: 'https://blog.example/post?utm=x' } });
    now += 60_000;
    await visit(cms, '/missing', { headers: { referer: 'https://blog.example/post' } });
    await visit(cms, '/missing', { method: 'HEAD' });
    await visit(cms, '/gone');
    await visit(cms, '/form', { method: 'POST' });
    await visit(cms, '/_cms/api/nope');
    const data = await log(cms, '?sort=count');
    expect(
      data.items.map((e: { path: string; referrer: string | null; count: number }) => [e.path, e.referrer, e.count]),
    ).toEqual([
      ['/missing', 'https://blog.example/post', 2],
      ['/gone', null, 1],
      ['/missing', null, 1],
    ]);
    expect(data.items[0]).toMatchObject({
      firstSeen: '2026-03-01T10:00:00.000Z',
      lastSeen: '2026-03-01T10:01:00.000Z',
    });
    const recent = await log(cms, '?limit=1');
    expect(recent.items).toHaveLength(1);
    const next = await call(cms, 'GET', `/redirects/404s?limit=5&cursor=${recent.nextCursor}`, {
      token: cms.adminToken,
    });
    expect(next.body.data.items).toHaveLength(2);
    const onePath = await log(cms, '?path=/gone');
    expect(onePath.items).toHaveLength(1);

    const summary = await call(cms, 'GET', '/redirects/404s/summary', { token: cms.adminToken });
    expect(summary.body.data).toMatchObject({
      items: [
        { path: '/missing', count: 3, referrers: 2, firstSeen: '2026-03-01T10:00:00.000Z' },
        { path: '/gone', count: 1, referrers: 1 },
      ],
      totalHits: 4,
      evictedHits: 0,
      entries: 3,
    });
    const page = await call(cms, 'GET', '/redirects/404s/summary?limit=1', { token: cms.adminToken });
    const page2 = await call(cms, 'GET', `/redirects/404s/summary?limit=1&cursor=${page.body.data.nextCursor}`, {
      token: cms.adminToken,
    });
    expect(page2.body.data.items.map((g: { path: string }) => g.path)).toEqual(['/gone']);
  });

  it('prunes by selection and clears, never touching redirect rules', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z');
    const cms = await testCms(dialect, { clock: { now: () => new Date(now) } });
    const rule = await call(cms, 'POST', '/redirects', { token: cms.adminToken, body: { source: '/r', target: '/s' } });
    await visit(cms, '/old-a');
    now += 3_600_000;
    for (let i = 0; i < 3; i++) await visit(cms, '/popular');
    await visit(cms, '/one');
    await visit(cms, '/two');
    await cms.services.redirects.flush();
    const empty = await call(cms, 'POST', '/redirects/404s', { token: cms.adminToken, body: {} });
    expect(empty.status).toBe(400);
    const before = await call(cms, 'POST', '/redirects/404s', {
      token: cms.adminToken,
      body: { before: '2026-03-01T10:30:00.000Z' },
    });
    expect(before.body.data).toEqual({ deleted: 1 });
    const rare = await call(cms, 'POST', '/redirects/404s', {
      token: cms.adminToken,
      body: { maxCount: 1, paths: ['/one'] },
    });
    expect(rare.body.data).toEqual({ deleted: 1 });
    const items = (await log(cms)).items as Array<{ id: string; path: string }>;
    expect(items.map((e) => e.path).sort()).toEqual(['/popular', '/two']);
    const byId = await call(cms, 'POST', '/redirects/404s', {
      token: cms.adminToken,
      body: { ids: [items.find((e) => e.path === '/two')!.id] },
    });
    expect(byId.body.data).toEqual({ deleted: 1 });
    const clear = await call(cms, 'DELETE', '/redirects/404s', { token: cms.adminToken });
    expect(clear.body.data).toEqual({ deleted: 1 });
    expect((await log(cms)).items).toEqual([]);
    expect((await call(cms, 'GET', `/redirects/${rule.body.data.id}`, { token: cms.adminToken })).status).toBe(200);
    const bad = await call(cms, 'POST', '/redirects/404s', { token: cms.adminToken, body: { before: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].path).toEqual(['before']);
  });

  it('stays within its bound under a flood of random paths, keeping the frequent ones', async () => {
    const cms = await testCms(dialect, { config: { notFoundLogLimit: 100 } });
    for (let i = 0; i < 5; i++) await visit(cms, '/real-broken-link');
    await cms.services.redirects.flush();
    for (let i = 0; i < 1500; i++) await visit(cms, `/scan/${i}-${'x'.repeat(i % 7)}`);
    await visit(cms, `/${'long'.repeat(1000)}`);
    await cms.services.redirects.flush();
    const rows = await cms.database.db.selectFrom('_cms_not_found').select(['path']).execute();
    expect(rows.length).toBeLessThanOrEqual(100);
    expect(rows.some((r) => r.path === '/real-broken-link')).toBe(true);
    expect(Math.max(...rows.map((r) => r.path.length))).toBeLessThanOrEqual(1000);
    const summary = await call(cms, 'GET', '/redirects/404s/summary', { token: cms.adminToken });
    // Every miss is accounted for: kept or evicted.
    expect(summary.body.data.totalHits + summary.body.data.evictedHits).toBe(5 + 1500 + 1);
    expect(summary.body.data.entries).toBeLessThanOrEqual(100);
  });
});

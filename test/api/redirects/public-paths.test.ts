import { afterEach, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/core/log.js';
import { createCms } from '../../../src/index.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { visit } from '../../helpers/public.js';

describeEachDialect('redirects on public paths', (dialect) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const rule = async (cms: TestCms, body: Record<string, unknown>) => {
    const res = await call(cms, 'POST', '/redirects', { token: cms.adminToken, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: string };
  };

  it('redirects exact, prefix and pattern sources with captures, keeping the query', async () => {
    const cms = await testCms(dialect);
    await rule(cms, { source: '/old', target: '/new' });
    await rule(cms, { source: '/docs/*', target: '/manual/:splat', statusCode: 308 });
    await rule(cms, { source: '/blog/:year/:slug', target: 'https://news.example/:year/:slug', statusCode: 302 });
    await rule(cms, { source: '/blog/archive/:slug', target: '/archive/:slug', statusCode: 307 });
    await rule(cms, { source: '/q', target: '/search?q=fixed' });

    const check = async (path: string, status: number, location: string, method = 'GET') => {
      const res = await visit(cms, path, { method });
      expect([path, res.status, res.headers.get('location')]).toEqual([path, status, location]);
    };
    await check('/old', 301, '/new');
    await check('/old/?utm=1', 301, '/new?utm=1');
    await check('/docs', 308, '/manual/');
    await check('/docs/a/b.html', 308, '/manual/a/b.html');
    await check('/blog/2024/hello', 302, 'https://news.example/2024/hello');
    // The more literal rule wins over the pattern.
    await check('/blog/archive/x', 307, '/archive/x');
    await check('/q?x=1', 301, '/search?q=fixed');
    await check('/old', 301, '/new', 'HEAD');
    await check('/docs/form', 308, '/manual/form', 'POST');
    expect((await visit(cms, '/blog/2024')).status).toBe(404);
  });

  it('never lets a capture turn a site path into another site', async () => {
    const cms = await testCms(dialect);
    await rule(cms, { source: '/go/*', target: '/:splat' });
    await rule(cms, { source: '/to/:where', target: '/:where/x' });
    for (const path of ['/go//evil.example', '/go/%2F%2Fevil.example', '/go/\\evil.example', '/to/%5Cevil.example']) {
      const res = await visit(cms, path);
      const location = res.headers.get('location') ?? '';
      expect(res.status).toBe(301);
      expect(location.startsWith('/')).toBe(true);
      expect(location.startsWith('//')).toBe(false);
      expect(new URL(location, 'https://site.example').origin).toBe('https://site.example');
    }
  });

  it('leaves /_cms and the service’s own routes alone', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: 'https://site.example' } });
    await rule(cms, { source: '/_cms/*', target: '/elsewhere' });
    await rule(cms, { source: '/sitemap.xml', target: '/other.xml' });
    const api = await visit(cms, '/_cms/api/nothing-here');
    expect(api.status).toBe(404);
    expect(api.headers.get('location')).toBeNull();
    expect((await visit(cms, '/sitemap.xml')).status).toBe(200);
    expect((await call(cms, 'GET', '/redirects', { token: cms.adminToken })).status).toBe(200);
  });

  it('counts hits (written in batches) and sees another process’s rules within a second', async () => {
    const cms = await testCms(dialect);
    const r = await rule(cms, { source: '/counted', target: '/x' });
    for (let i = 0; i < 3; i++) await visit(cms, '/counted');
    await cms.services.redirects.flush();
    const got = await call(cms, 'GET', `/redirects/${r.id}`, { token: cms.adminToken });
    expect(got.body.data.hits).toBe(3);
    expect(got.body.data.lastHitAt).toMatch(/\.\d{3}Z$/);
    const byHits = await call(cms, 'GET', '/redirects?sort=hits', { token: cms.adminToken });
    expect(byHits.body.data.items[0].id).toBe(r.id);

    const other = await createCms({
      config: cms.config,
      database: cms.database,
      migrate: false,
      scheduler: false,
      logger: createLogger('silent'),
    });
    expect((await other.app.request('/later')).status).toBe(404);
    // Each process re-reads the rules' version row once a second, by the clock: a fake clock (Date
    // only) moves past that second instead of the test sleeping through it.
    vi.useFakeTimers({ toFake: ['Date'] });
    await rule(cms, { source: '/later', target: '/now' });
    vi.setSystemTime(Date.now() + 1_100);
    const seen = await other.app.request('/later');
    expect(seen.status).toBe(301);
    await other.services.redirects.close();
  });
});

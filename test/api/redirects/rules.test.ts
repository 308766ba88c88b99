import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('redirect rules', (dialect) => {
  const create = (cms: Awaited<ReturnType<typeof testCms>>, body: Record<string, unknown>) =>
    call(cms, 'POST', '/redirects', { token: cms.adminToken, body });

  it('creates exact, prefix and pattern rules with normalised sources; CRUD and conflicts', async () => {
    const cms = await testCms(dialect);
    const exact = await create(cms, { source: '/old-page/', target: '/new-page' });
    expect(exact.status, JSON.stringify(exact.body)).toBe(201);
    expect(exact.body.data).toMatchObject({
      source: '/old-page',
      kind: 'exact',
      target: '/new-page',
      statusCode: 301,
      enabled: true,
      hits: 0,
      lastHitAt: null,
      warnings: [],
    });
    const prefix = await create(cms, { source: '/docs/*', target: '/manual/:splat', statusCode: 308 });
    expect(prefix.body.data).toMatchObject({ kind: 'prefix', statusCode: 308 });
    const pattern = await create(cms, {
      source: '/blog/:year/:slug',
      target: 'https://news.example/:slug?y=:year',
      statusCode: 302,
    });
    expect(pattern.body.data.kind).toBe('pattern');
    const unicode = await create(cms, { source: '/café', target: '/coffee' });
    expect(unicode.body.data.source).toBe('/caf%C3%A9');

    const dup = await create(cms, { source: '/old-page', target: '/elsewhere' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('ALREADY_EXISTS');

    const got = await call(cms, 'GET', `/redirects/${exact.body.data.id}`, { token: cms.adminToken });
    expect(got.body.data.source).toBe('/old-page');
    const upd = await call(cms, 'PUT', `/redirects/${exact.body.data.id}`, {
      token: cms.adminToken,
      body: { statusCode: 307, note: 'campaign', enabled: false },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({ statusCode: 307, note: 'campaign', enabled: false, target: '/new-page' });

    const bySource = await call(cms, 'GET', '/redirects?sort=source&limit=2', { token: cms.adminToken });
    expect(bySource.body.data.items.map((r: { source: string }) => r.source)).toEqual([
      '/blog/:year/:slug',
      '/caf%C3%A9',
    ]);
    const rest = await call(cms, 'GET', `/redirects?sort=source&limit=2&cursor=${bySource.body.data.nextCursor}`, {
      token: cms.adminToken,
    });
    expect(rest.body.data.items.map((r: { source: string }) => r.source)).toEqual(['/docs/*', '/old-page']);
    expect(rest.body.data.nextCursor).toBeUndefined();
    const recent = await call(cms, 'GET', '/redirects', { token: cms.adminToken });
    expect(recent.body.data.items[0].id).toBe(unicode.body.data.id);
    const prefixed = await call(cms, 'GET', '/redirects?prefix=/d', { token: cms.adminToken });
    expect(prefixed.body.data.items.map((r: { source: string }) => r.source)).toEqual(['/docs/*']);

    const del = await call(cms, 'DELETE', `/redirects/${exact.body.data.id}`, { token: cms.adminToken });
    expect(del.body.data).toEqual({ deleted: true, id: exact.body.data.id });
    expect((await call(cms, 'GET', `/redirects/${exact.body.data.id}`, { token: cms.adminToken })).status).toBe(404);
  });

  it('validates sources and targets, naming the field', async () => {
    const cms = await testCms(dialect);
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await create(cms, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.issues.map((i: { path: string[] }) => i.path.join('.'))).toContain(field);
    };
    await bad({ source: 'no-slash', target: '/x' }, 'source');
    await bad({ source: '//evil.example/x', target: '/x' }, 'source');
    await bad({ source: '/a?b=1', target: '/x' }, 'source');
    await bad({ source: '/a/*/b', target: '/x' }, 'source');
    await bad({ source: '/a/:x/:x', target: '/x' }, 'source');
    await bad({ source: '/a\u0000b', target: '/x' }, 'source');
    await bad({ source: '/a\ud800', target: '/x' }, 'source');
    await bad({ source: '/a', target: '//evil.example' }, 'target');
    await bad({ source: '/a', target: 'javascript:alert(1)' }, 'target');
    await bad({ source: '/a', target: '/b\\c' }, 'target');
    await bad({ source: '/a/:slug', target: '/b/:other' }, 'target');
    await bad({ source: '/a/:host', target: 'https://:host/x' }, 'target');
    await bad({ source: '/a', target: '/b', statusCode: 303 }, 'statusCode');
    await bad({ source: '/a', target: '/b', hits: 5 }, '');
    expect((await call(cms, 'GET', '/redirects', { token: cms.adminToken })).body.data.items).toEqual([]);
  });

  it('refuses loops (direct, through other rules, growing prefixes) and reports chains', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: 'https://site.example' } });
    const self = await create(cms, { source: '/a', target: '/a/' });
    expect(self.status).toBe(400);
    expect(self.body.error.details.issues[0]).toMatchObject({ path: ['target'], code: 'redirect_loop' });

    const ab = await create(cms, { source: '/a', target: '/b' });
    expect(ab.status).toBe(201);
    const ba = await create(cms, { source: '/b', target: 'https://site.example/a' });
    expect(ba.status).toBe(400);
    expect(ba.body.error.details.issues[0].code).toBe('redirect_loop');
    const growing = await create(cms, { source: '/grow/*', target: '/grow/more/:splat' });
    expect(growing.status).toBe(400);

    // A chain is allowed but reported, on the new rule and on the rule that now chains into it.
    const bc = await create(cms, { source: '/b', target: '/c' });
    expect(bc.status).toBe(201);
    expect(bc.body.data.warnings).toEqual([
      expect.objectContaining({ code: 'chained_into', ruleId: ab.body.data.id, chain: ['/a', '/b', '/c'] }),
    ]);
    const a = await call(cms, 'GET', `/redirects/${ab.body.data.id}`, { token: cms.adminToken });
    expect(a.body.data.warnings).toEqual([
      expect.objectContaining({ code: 'redirect_chain', chain: ['/a', '/b', '/c'] }),
    ]);
    // Closing the loop through an update is refused too; a disabled rule takes no part.
    const loopBack = await call(cms, 'PUT', `/redirects/${bc.body.data.id}`, {
      token: cms.adminToken,
      body: { target: '/a' },
    });
    expect(loopBack.status).toBe(400);
    await call(cms, 'PUT', `/redirects/${ab.body.data.id}`, { token: cms.adminToken, body: { enabled: false } });
    const nowFine = await call(cms, 'PUT', `/redirects/${bc.body.data.id}`, {
      token: cms.adminToken,
      body: { target: '/a' },
    });
    expect(nowFine.status).toBe(200);
    const reEnable = await call(cms, 'PUT', `/redirects/${ab.body.data.id}`, {
      token: cms.adminToken,
      body: { enabled: true },
    });
    expect(reEnable.status).toBe(400);
    // Another site's URL ends the walk: no loop.
    const external = await create(cms, { source: '/x', target: 'https://other.example/x' });
    expect(external.status).toBe(201);
  });

  it('tests a path hop by hop without counting hits', async () => {
    const cms = await testCms(dialect);
    await create(cms, { source: '/blog/:year/:slug', target: '/posts/:slug' });
    await create(cms, { source: '/posts/*', target: '/articles/:splat', statusCode: 302 });
    const res = await call(cms, 'GET', `/redirects/test?path=${encodeURIComponent('/blog/2020/hello/?ref=x')}`, {
      token: cms.adminToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      path: '/blog/2020/hello',
      match: { location: '/posts/hello?ref=x', statusCode: 301 },
      hops: ['/posts/hello', '/articles/hello'],
      loop: false,
    });
    const miss = await call(cms, 'GET', '/redirects/test?path=/nothing', { token: cms.adminToken });
    expect(miss.body.data).toMatchObject({ match: null, hops: [] });
    const bad = await call(cms, 'GET', '/redirects/test?path=nothing', { token: cms.adminToken });
    expect(bad.status).toBe(400);
    const list = await call(cms, 'GET', '/redirects', { token: cms.adminToken });
    expect(list.body.data.items.every((r: { hits: number }) => r.hits === 0)).toBe(true);
  });

  it('is Editor work: lower roles and narrow tokens are refused', async () => {
    const cms = await testCms(dialect);
    const roles = await roleTokens(cms);
    for (const who of [roles.subscriber, roles.contributor, roles.author]) {
      expect(
        (await call(cms, 'POST', '/redirects', { token: who.token, body: { source: '/a', target: '/b' } })).status,
      ).toBe(403);
      expect((await call(cms, 'GET', '/redirects/404s', { token: who.token })).status).toBe(403);
    }
    expect((await call(cms, 'GET', '/redirects', { token: null })).status).toBe(401);
    const ok = await call(cms, 'POST', '/redirects', {
      token: roles.editor.token,
      body: { source: '/a', target: '/b' },
    });
    expect(ok.status).toBe(201);
    const narrow = await cms.userToken(ROLES.EDITOR, ['content:read']);
    const res = await call(cms, 'DELETE', `/redirects/${ok.body.data.id}`, { token: narrow.token });
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });
});

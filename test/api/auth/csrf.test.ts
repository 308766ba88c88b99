import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { Browser, sessionFor } from '../../helpers/session.js';

describeEachDialect('CSRF rule', (dialect) => {
  it('refuses cookie-authenticated writes without X-CMS-Request: 1', async () => {
    const cms = await testCms(dialect);
    const browser = await sessionFor(cms, cms.adminId);
    const body = { name: 'ci', scopes: ['content:read'] };

    const bare = await browser.call('POST', '/auth/tokens', { body, csrf: false });
    expect(bare.status).toBe(403);
    expect(bare.body.error.code).toBe('CSRF_REJECTED');
    const wrong = await browser.call('POST', '/auth/tokens', { body, headers: { 'x-cms-request': 'yes' } });
    expect(wrong.status).toBe(403);
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await browser.call(method, `/admin/users/${cms.adminId}`, { body: { name: 'X' }, csrf: false });
      expect(res.body.error.code, method).toBe('CSRF_REJECTED');
    }
    // Even a matching Origin does not replace the header for cookie-authenticated requests.
    const withOrigin = await browser.call('POST', '/auth/tokens', {
      body,
      csrf: false,
      headers: { origin: new URL(cms.config.publicUrl).origin },
    });
    expect(withOrigin.status).toBe(403);

    expect((await browser.call('POST', '/auth/tokens', { body })).status).toBe(201);
    // Reads need no header.
    expect((await browser.call('GET', '/auth/tokens')).status).toBe(200);
  });

  it('does not ask Bearer requests for the header', async () => {
    const cms = await testCms(dialect);
    const res = await call(cms, 'POST', '/auth/tokens', {
      token: cms.adminToken,
      body: { name: 'ci', scopes: ['content:read'] },
    });
    expect(res.status).toBe(201);
    // A Bearer token wins over a cookie in the same request: no CSRF check applies.
    const browser = await sessionFor(cms, cms.adminId);
    const both = await call(cms, 'PUT', `/admin/users/${cms.adminId}`, {
      token: cms.adminToken,
      body: { name: 'Both' },
      headers: { cookie: `cms_session=${browser.cookie}` },
    });
    expect(both.status).toBe(200);
  });

  it('lets public writes through only with the header or an Origin of this site', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: 'https://cms.example.com' } });
    const send = (headers: Record<string, string>) => call(cms, 'POST', '/auth/passkey/options', { body: {}, headers });

    const none = await send({});
    expect(none.status).toBe(403);
    expect(none.body.error.code).toBe('CSRF_REJECTED');
    expect((await send({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await send({ origin: 'null' })).status).toBe(403);
    expect((await send({ origin: 'https://cms.example.com.evil.example' })).status).toBe(403);

    expect((await send({ 'x-cms-request': '1' })).status).toBe(200);
    expect((await send({ origin: 'https://cms.example.com' })).status).toBe(200);
    // The request's own origin (app.request() serves http://localhost).
    expect((await send({ origin: 'http://localhost' })).status).toBe(200);

    for (const path of [
      '/setup/options',
      '/auth/magic-link/send',
      '/auth/signup/request',
      '/auth/magic-link/consume',
    ]) {
      const res = await call(cms, 'POST', path, { body: { email: 'x@example.test' } });
      expect(res.body.error.code, path).toBe('CSRF_REJECTED');
    }
  });

  it('treats an unknown or expired cookie as signed out', async () => {
    const cms = await testCms(dialect);
    const browser = new Browser(cms);
    browser.cookie = 'not-a-session-id-at-all-not-a-session-id-at';
    expect((await browser.call('GET', '/auth/me')).status).toBe(401);
    const write = await browser.call('POST', '/auth/tokens', { body: { name: 'x', scopes: ['content:read'] } });
    expect(write.status).toBe(401);
  });
});

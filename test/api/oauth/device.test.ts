import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { ManualClock } from '../../../src/core/clock.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { sessionFor } from '../../helpers/session.js';
import { form, register } from './flow.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

async function deviceClient(cms: TestCms, scope?: string): Promise<string> {
  const res = await register(cms, {
    client_name: 'Command line',
    grant_types: [DEVICE_GRANT, 'refresh_token'],
    token_endpoint_auth_method: 'none',
    ...(scope ? { scope } : {}),
  });
  expect(res.status).toBe(201);
  return res.body.client_id;
}

describeEachDialect('OAuth device authorization grant', (dialect) => {
  const poll = (cms: TestCms, clientId: string, deviceCode: string, path = '/device/token', headers = {}) =>
    form(cms, path, { grant_type: DEVICE_GRANT, client_id: clientId, device_code: deviceCode }, headers);

  it('walks pending → slow_down → approval → tokens, then the code is spent', async () => {
    const clock = new ManualClock('2026-04-01T09:00:00.000Z');
    const cms = await testCms(dialect, { clock, config: { publicUrl: 'https://cms.example.test' } });
    const clientId = await deviceClient(cms);
    const start = await form(cms, '/device/code', { client_id: clientId, scope: 'content:read schema:read' });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.headers.get('cache-control')).toBe('no-store');
    const d = start.body;
    expect(d.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(d).toMatchObject({
      verification_uri: 'https://cms.example.test/_cms/admin/oauth/device',
      verification_uri_complete: `https://cms.example.test/_cms/admin/oauth/device?user_code=${d.user_code}`,
      expires_in: 600,
      interval: 5,
    });

    const first = await poll(cms, clientId, d.device_code);
    expect(first.status).toBe(400);
    expect(first.body.error).toBe('authorization_pending');
    clock.advance(2_000);
    const fast = await poll(cms, clientId, d.device_code);
    expect(fast.body.error).toBe('slow_down');
    // The interval is now 10 s: 6 s later is still too fast.
    clock.advance(6_000);
    expect((await poll(cms, clientId, d.device_code)).body.error).toBe('slow_down');
    clock.advance(15_000);
    expect((await poll(cms, clientId, d.device_code)).body.error).toBe('authorization_pending');

    // The person opens the page; the code is accepted in any case, with or without the dash.
    const { userId } = await cms.userToken(ROLES.EDITOR);
    const browser = await sessionFor(cms, userId);
    const typed = d.user_code.replace('-', '').toLowerCase();
    const view = await browser.call('GET', `/oauth/device/verify/${typed}`);
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body.data).toMatchObject({
      userCode: d.user_code,
      client: { id: clientId, name: 'Command line' },
      scopes: [
        { scope: 'content:read', allowed: true },
        { scope: 'schema:read', allowed: true },
      ],
    });
    expect(
      (await call(cms, 'POST', `/oauth/device/verify/${typed}/approve`, { token: cms.adminToken, body: {} })).status,
    ).toBe(403);
    const approved = await browser.call('POST', `/oauth/device/verify/${d.user_code}/approve`, { body: {} });
    expect(approved.body.data).toEqual({ approved: true, scopes: ['content:read', 'schema:read'] });
    // Approved codes cannot be answered again.
    expect((await browser.call('POST', `/oauth/device/verify/${d.user_code}/deny`)).status).toBe(404);

    clock.advance(10_000);
    const tokens = await poll(cms, clientId, d.device_code);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'content:read schema:read' });
    const me = await call(cms, 'GET', '/auth/me', { token: tokens.body.access_token });
    expect(me.body.data.user.id).toBe(userId);
    clock.advance(10_000);
    expect((await poll(cms, clientId, d.device_code)).body.error).toBe('invalid_grant');
  });

  it('answers access_denied after a denial, expired_token after 10 minutes', async () => {
    const clock = new ManualClock('2026-04-01T09:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    const clientId = await deviceClient(cms);
    const browser = await sessionFor(cms, cms.adminId);

    const denied = (await form(cms, '/device/code', { client_id: clientId })).body;
    expect((await browser.call('POST', `/oauth/device/verify/${denied.user_code}/deny`)).body.data).toEqual({
      denied: true,
    });
    const answer = await poll(cms, clientId, denied.device_code);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('access_denied');

    const late = (await form(cms, '/device/code', { client_id: clientId })).body;
    clock.advance(600_000);
    expect((await poll(cms, clientId, late.device_code)).body.error).toBe('expired_token');
    expect((await browser.call('GET', `/oauth/device/verify/${late.user_code}`)).status).toBe(404);
    expect((await browser.call('POST', `/oauth/device/verify/${late.user_code}/approve`, { body: {} })).status).toBe(
      404,
    );
  });

  it('checks client, grant and code', async () => {
    const cms = await testCms(dialect);
    const clientId = await deviceClient(cms, 'content:read');
    const codeClient = await register(cms, {
      redirect_uris: ['https://a.example/cb'],
      token_endpoint_auth_method: 'none',
    });
    const unauthorized = await form(cms, '/device/code', { client_id: codeClient.body.client_id });
    expect(unauthorized.body.error).toBe('unauthorized_client');
    expect((await form(cms, '/device/code', {})).status).toBe(401);
    expect((await form(cms, '/device/code', { client_id: clientId, scope: 'schema:write' })).body.error).toBe(
      'invalid_scope',
    );
    const d = (await form(cms, '/device/code', { client_id: clientId })).body;
    const other = await deviceClient(cms);
    expect((await poll(cms, other, d.device_code)).body.error).toBe('invalid_grant');
    expect((await poll(cms, clientId, 'not-a-code')).body.error).toBe('invalid_grant');
    // The device endpoint takes only the device grant; the token endpoint takes it too.
    const wrongGrant = await form(cms, '/device/token', {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: 'x',
    });
    expect(wrongGrant.body.error).toBe('unsupported_grant_type');
    expect((await poll(cms, clientId, d.device_code, '/token')).body.error).toBe('authorization_pending');
    const browser = await sessionFor(cms, cms.adminId);
    expect((await browser.call('GET', '/oauth/device/verify/AAAA-AAAA')).status).toBe(404);
  });

  it('limits device codes to 10 and polls to 12 per minute per client IP', async () => {
    const clock = new ManualClock('2026-04-01T09:00:00.000Z');
    const cms = await testCms(dialect, { clock, config: { trustedProxyHeaders: ['x-real-ip'] } });
    const clientId = await deviceClient(cms);
    const ip = { 'x-real-ip': '198.51.100.20' };
    let last: any;
    for (let i = 0; i < 10; i++) {
      last = await form(cms, '/device/code', { client_id: clientId }, ip);
      expect(last.status).toBe(200);
    }
    const limited = await form(cms, '/device/code', { client_id: clientId }, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('temporarily_unavailable');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Polls count on /device/token and on /token alike (12 per minute).
    for (let i = 0; i < 12; i++) {
      const res = await poll(cms, clientId, last.body.device_code, i % 2 ? '/token' : '/device/token', ip);
      expect(res.status, `poll ${i}`).toBe(400);
    }
    expect((await poll(cms, clientId, last.body.device_code, '/device/token', ip)).status).toBe(429);
    expect((await poll(cms, clientId, last.body.device_code, '/token', ip)).status).toBe(429);
    expect(
      (await poll(cms, clientId, last.body.device_code, '/device/token', { 'x-real-ip': '198.51.100.21' })).status,
    ).toBe(400);
    clock.advance(60_000);
    expect((await poll(cms, clientId, last.body.device_code, '/device/token', ip)).status).toBe(400);
  });
});

import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { register } from './flow.js';

describeEachDialect('OAuth dynamic client registration', (dialect) => {
  it('registers a public client and echoes its metadata', async () => {
    const cms = await testCms(dialect);
    const res = await register(cms, {
      client_name: 'Agent',
      redirect_uris: ['https://agent.example/cb', 'http://localhost:3000/cb', 'com.example.agent:/oauth'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      scope: 'content:read content:write',
      logo_uri: 'https://agent.example/logo.png',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      client_name: 'Agent',
      redirect_uris: ['https://agent.example/cb', 'http://localhost:3000/cb', 'com.example.agent:/oauth'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'content:read content:write',
    });
    expect(res.body.client_id).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(res.body.client_secret).toBeUndefined();
    expect(typeof res.body.client_id_issued_at).toBe('number');
  });

  it('gives confidential clients a secret, and registers device clients without redirect URIs', async () => {
    const cms = await testCms(dialect);
    const confidential = await register(cms, { redirect_uris: ['https://app.example/cb'] });
    expect(confidential.status).toBe(201);
    // RFC 7591 defaults: authorization_code, client_secret_basic.
    expect(confidential.body.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(confidential.body.client_secret).toMatch(/^cms_ocs_/);
    expect(confidential.body.client_secret_expires_at).toBe(0);
    expect(confidential.body.client_name).toBe('Unnamed application');

    const device = await register(cms, {
      client_name: 'CLI',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    });
    expect(device.status, JSON.stringify(device.body)).toBe(201);
    expect(device.body.redirect_uris).toEqual([]);
    expect(device.body.response_types).toEqual([]);
    expect(device.body.scope.split(' ')).toContain('admin');
  });

  it('refuses bad metadata with RFC 7591 errors', async () => {
    const cms = await testCms(dialect);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['/relative'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://user:pw@app.example/cb'] }, 'invalid_redirect_uri'],
      [{ token_endpoint_auth_method: 'none' }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://a.example/cb'], grant_types: ['password'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://a.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
      [
        { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' },
        'invalid_client_metadata',
      ],
      [{ redirect_uris: ['https://a.example/cb'], scope: 'openid profile' }, 'invalid_client_metadata'],
      [{ redirect_uris: 'https://a.example/cb' }, 'invalid_client_metadata'],
    ];
    for (const [metadata, error] of cases) {
      const res = await register(cms, metadata);
      expect(res.status, JSON.stringify(metadata)).toBe(400);
      expect(res.body.error, JSON.stringify(metadata)).toBe(error);
      expect(typeof res.body.error_description).toBe('string');
      expect(res.body.success).toBeUndefined();
    }
    const notJson = await cms.app.request('/_cms/api/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_name=x',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });

  it('keeps known scopes of a registration and drops unknown ones', async () => {
    const cms = await testCms(dialect);
    const res = await register(cms, {
      redirect_uris: ['https://a.example/cb'],
      token_endpoint_auth_method: 'none',
      scope: 'openid content:read offline_access',
    });
    expect(res.status).toBe(201);
    expect(res.body.scope).toBe('content:read');
  });

  it('limits registrations to 10 per minute per client IP', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const cms = await testCms(dialect, { clock, config: { trustedProxyHeaders: ['x-forwarded-for'] } });
    const metadata = { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'none' };
    const ip = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 10; i++) expect((await register(cms, metadata, ip)).status).toBe(201);
    const limited = await register(cms, metadata, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('temporarily_unavailable');
    expect(limited.headers.get('retry-after')).toBe('60');
    expect((await register(cms, metadata, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(201);
    clock.advance(60_000);
    expect((await register(cms, metadata, ip)).status).toBe(201);
  });
});

import { describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../src/auth/scopes.js';
import { call, testCms } from '../../helpers/cms.js';
import { getJson } from './flow.js';

// Discovery touches no table: one dialect is enough.
describe('OAuth discovery', () => {
  const config = { publicUrl: 'https://cms.example.test' };

  it('serves RFC 9728 protected resource metadata at the root and path-suffixed addresses', async () => {
    const cms = await testCms('sqlite', { config });
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/_cms/api/mcp',
    ]) {
      const res = await getJson(cms, path, { origin: 'https://agent.example' });
      expect(res.status, path).toBe(200);
      expect(res.body).toMatchObject({
        resource: 'https://cms.example.test/_cms/api/mcp',
        authorization_servers: ['https://cms.example.test/_cms'],
        bearer_methods_supported: ['header'],
      });
      expect(res.body.scopes_supported).toEqual(ALL_SCOPES);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('serves RFC 8414 authorization server metadata for the issuer /_cms', async () => {
    const cms = await testCms('sqlite', { config });
    const res = await getJson(cms, '/.well-known/oauth-authorization-server/_cms');
    expect(res.status).toBe(200);
    const base = 'https://cms.example.test/_cms/api/oauth';
    expect(res.body).toMatchObject({
      issuer: 'https://cms.example.test/_cms',
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      device_authorization_endpoint: `${base}/device/code`,
      revocation_endpoint: `${base}/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(res.body.token_endpoint_auth_methods_supported).toContain('none');
    expect(res.body.scopes_supported).toContain('content:read');
  });

  it('points unauthenticated MCP clients at the protected resource metadata', async () => {
    const cms = await testCms('sqlite', { config });
    const res = await cms.app.request('/_cms/api/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    const header = res.headers.get('www-authenticate') ?? '';
    const url = /resource_metadata="([^"]+)"/.exec(header)?.[1];
    expect(url).toBe('https://cms.example.test/.well-known/oauth-protected-resource');
    expect((await getJson(cms, new URL(url!).pathname)).status).toBe(200);
  });

  it('keeps the OAuth endpoints out of the OpenAPI document', async () => {
    const cms = await testCms('sqlite', { config });
    const doc = await call(cms, 'GET', '/openapi.json');
    expect(Object.keys((doc.body as unknown as { paths: object }).paths).filter((p) => p.includes('oauth'))).toEqual(
      [],
    );
  });
});

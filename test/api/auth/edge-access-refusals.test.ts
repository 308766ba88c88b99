import { afterEach, expect, it, vi } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { AUDIENCE, GatewayBrowser, startGateway } from '../../helpers/edge-access.js';
import { serve } from '../../helpers/mcp.js';

afterEach(() => {
  vi.useRealTimers();
});

async function gatewaySite(dialect: 'sqlite' | 'postgres', auth: Record<string, unknown> = {}) {
  const gateway = await startGateway();
  const cms = await testCms(dialect, { config: { auth: gateway.auth(auth) } });
  return { gateway, cms };
}

async function asGateway(cms: TestCms, token: string, path = '/auth/me') {
  return new GatewayBrowser(cms, token).call('GET', path);
}

const expectCode = (res: { status: number; body: any }, status: number, code: string, reason?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (reason) expect(res.body.error.details?.reason).toBe(reason);
};

describeEachDialect('edge access gateway: refusals', (dialect) => {
  it('answers EDGE_ACCESS_TOKEN_MISSING on protected routes without the header; public routes still answer', async () => {
    const { cms } = await gatewaySite(dialect);
    for (const path of ['/auth/me', '/schema/collections', '/admin/users', '/auth/tokens']) {
      expectCode(await call(cms, 'GET', path), 401, 'EDGE_ACCESS_TOKEN_MISSING');
    }
    // The login page learns the mode; the setup wizard is not needed.
    const methods = await call(cms, 'GET', '/auth/methods');
    expect(methods.status).toBe(200);
    expect(methods.body.data).toMatchObject({ mode: 'edge-access', passkey: false, magicLink: false, signup: false });
    expect(methods.body.data.gateway.signOutUrl).toBe('https://team.example.test/cdn-cgi/access/logout');
    expect((await call(cms, 'GET', '/setup/status')).body.data.needsSetup).toBe(false);
    // Outside the API: health needs no token.
    expect((await cms.app.request('/_cms/health/live')).status).toBe(200);
  });

  it('refuses a token issued for another application with EDGE_ACCESS_AUDIENCE_MISMATCH', async () => {
    const { gateway, cms } = await gatewaySite(dialect);
    const res = await asGateway(cms, await gateway.sign({ audience: ['aud-of-another-app'] }));
    expectCode(res, 403, 'EDGE_ACCESS_AUDIENCE_MISMATCH');
    expect(res.body.error.details.tokenAudience).toEqual(['aud-of-another-app']);
    // A public route answers as to anyone: the refusal is the answer only where a caller is needed.
    const methods = await new GatewayBrowser(cms, await gateway.sign({ audience: 'x' })).call('GET', '/auth/methods');
    expect(methods.status).toBe(200);
    // An audience list that holds ours is fine.
    expect((await asGateway(cms, await gateway.sign({ audience: ['other', AUDIENCE] }))).status).toBe(200);
    expect(await cms.services.users.findByEmail('ada@example.test')).toBeTruthy();
  });

  it('refuses a forged signature, an unpublished key, an expired token, another issuer and garbage as EDGE_ACCESS_TOKEN_INVALID', async () => {
    const { gateway, cms } = await gatewaySite(dialect);
    expectCode(
      await asGateway(cms, await gateway.sign({ forge: true })),
      401,
      'EDGE_ACCESS_TOKEN_INVALID',
      'signature',
    );
    expectCode(
      await asGateway(cms, await gateway.sign({ key: 'unpublished' })),
      401,
      'EDGE_ACCESS_TOKEN_INVALID',
      'unknown_key',
    );
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    expectCode(
      await asGateway(cms, await gateway.sign({ issuedAt: hourAgo, lifetime: 600 })),
      401,
      'EDGE_ACCESS_TOKEN_INVALID',
      'expired',
    );
    expectCode(
      await asGateway(cms, await gateway.sign({ issuer: 'https://other-team.example.test' })),
      401,
      'EDGE_ACCESS_TOKEN_INVALID',
      'issuer',
    );
    expectCode(await asGateway(cms, 'not-a-jwt'), 401, 'EDGE_ACCESS_TOKEN_INVALID', 'malformed');
    // A service token (no email) names no user.
    expectCode(await asGateway(cms, await gateway.sign({ email: null })), 401, 'EDGE_ACCESS_TOKEN_INVALID', 'no_email');
    // None of them created a user.
    expect(await cms.services.users.count()).toBe(1);
  });

  it('accepts the issuer option in place of https://{teamDomain}', async () => {
    const { gateway, cms } = await gatewaySite(dialect, { issuer: 'http://127.0.0.1:9/issuer' });
    expectCode(await asGateway(cms, await gateway.sign()), 401, 'EDGE_ACCESS_TOKEN_INVALID', 'issuer');
    expect((await asGateway(cms, await gateway.sign({ issuer: 'http://127.0.0.1:9/issuer' }))).status).toBe(200);
  });

  it('keeps the key set, and fetches it again for a key it does not know once the cool-down passed (rotation)', async () => {
    const { gateway, cms } = await gatewaySite(dialect);
    expect((await asGateway(cms, await gateway.sign({ email: 'one@example.test' }))).status).toBe(200);
    expect((await asGateway(cms, await gateway.sign({ email: 'two@example.test' }))).status).toBe(200);
    expect(gateway.fetches).toBe(1);

    await gateway.rotate();
    // Right after the last fetch the set is not fetched again for an unknown key (a flood of made-up keys costs nothing).
    expectCode(await asGateway(cms, await gateway.sign()), 401, 'EDGE_ACCESS_TOKEN_INVALID', 'unknown_key');
    expect(gateway.fetches).toBe(1);
    // Half a minute later a token with the new key makes the service fetch the set again, and passes.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000);
    const rotated = await asGateway(cms, await gateway.sign({ email: 'three@example.test' }));
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(gateway.fetches).toBe(2);
  });

  it('answers EDGE_ACCESS_KEYS_UNAVAILABLE (503, never a 500) when the key set cannot be fetched', async () => {
    const gateway = await startGateway();
    const cms = await testCms(dialect, { config: { auth: gateway.auth() } });
    await gateway.close();
    expectCode(await asGateway(cms, await gateway.sign()), 503, 'EDGE_ACCESS_KEYS_UNAVAILABLE');
  });

  it('needs X-CMS-Request: 1 on writes signed in by the gateway (its cookie rides along on cross-site requests)', async () => {
    const { gateway, cms } = await gatewaySite(dialect);
    const token = await gateway.sign();
    const res = await call(cms, 'POST', '/auth/tokens', {
      headers: { 'edge-access-jwt-assertion': token },
      body: { name: 'cli', scopes: ['content:read'] },
    });
    expectCode(res, 403, 'CSRF_REJECTED');
    const ok = await new GatewayBrowser(cms, token).call('POST', '/auth/tokens', {
      body: { name: 'cli', scopes: ['content:read'] },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });
});

describeEachDialect('edge access gateway: Bearer tokens and MCP', (dialect) => {
  /** An Editor with a personal access token, and the address a gateway token must name for them. */
  async function editorWithToken(cms: TestCms) {
    const { token, userId } = await cms.userToken(ROLES.EDITOR);
    return { token, email: (await cms.services.users.get(userId)).email };
  }

  it('accepts a Bearer token only with a valid gateway token of the same user', async () => {
    const gateway = await startGateway();
    const cms = await testCms(dialect, { config: { auth: gateway.auth() } });
    const { token, email } = await editorWithToken(cms);
    const other = await call(cms, 'GET', '/auth/me', {
      token,
      headers: { 'edge-access-jwt-assertion': await gateway.sign({ email: 'someone@example.test' }) },
    });
    expectCode(other, 403, 'FORBIDDEN');
    expectCode(await call(cms, 'GET', '/auth/me', { token }), 401, 'EDGE_ACCESS_TOKEN_MISSING');
    const both = await call(cms, 'GET', '/auth/me', {
      token,
      headers: { 'edge-access-jwt-assertion': await gateway.sign({ email }) },
    });
    expect(both.status).toBe(200);
    expect(both.body.data.user.email).toBe(email);
    // A bad Bearer token is still a plain 401.
    expectCode(
      await call(cms, 'GET', '/auth/me', {
        token: 'cms_pat_nope',
        headers: { 'edge-access-jwt-assertion': await gateway.sign({ email }) },
      }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('applies the same rule on the MCP endpoint', async () => {
    const gateway = await startGateway();
    const cms = await testCms(dialect, { config: { auth: gateway.auth() } });
    const { token, email } = await editorWithToken(cms);
    const url = `${await serve(cms)}/_cms/api/mcp`;
    const rpc = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    const missing = await rpc({});
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as any).error.message).toMatch(/^\[EDGE_ACCESS_TOKEN_MISSING\]/);
    const other = await rpc({ 'edge-access-jwt-assertion': await gateway.sign({ email: 'someone@example.test' }) });
    expect(other.status).toBe(403);
    const ok = await rpc({ 'edge-access-jwt-assertion': await gateway.sign({ email }) });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result.tools.length).toBeGreaterThan(0);
  });
});

import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { sessionFor } from '../../helpers/session.js';
import {
  authorize,
  codeFlow,
  consentRequestId,
  form,
  pkce,
  publicClient,
  REDIRECT,
  redeem,
  register,
  tokensFor,
} from './flow.js';

describeEachDialect('OAuth authorization code with PKCE', (dialect) => {
  it('runs authorize → consent → code → tokens, passing state and iss, and the token works', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: 'https://cms.example.test' } });
    const flow = await codeFlow(cms);
    expect(`${flow.redirect.origin}${flow.redirect.pathname}`).toBe(REDIRECT);
    expect(flow.redirect.searchParams.get('state')).toBe('xyz');
    expect(flow.redirect.searchParams.get('iss')).toBe('https://cms.example.test/_cms');
    const res = await redeem(cms, flow);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'content:read content:write' });
    expect(res.body.access_token).toMatch(/^cms_oat_[A-Za-z0-9_-]{43}$/);
    expect(res.body.refresh_token).toMatch(/^cms_ort_[A-Za-z0-9_-]{43}$/);

    const me = await call(cms, 'GET', '/auth/me', { token: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data.user.id).toBe(cms.adminId);
    const actor = await cms.services.tokens.authenticate(res.body.access_token);
    expect(actor).toMatchObject({ via: 'oauth', userId: cms.adminId, scopes: ['content:read', 'content:write'] });
    expect(actor?.tokenId).toBeTruthy();
    // A refresh token is no Bearer credential.
    expect((await call(cms, 'GET', '/auth/me', { token: res.body.refresh_token })).status).toBe(401);
  });

  it('shows the consent page the client, the redirect host and the scopes', async () => {
    const cms = await testCms(dialect);
    const { clientId } = await publicClient(cms, { client_name: 'Writing Agent' });
    const { challenge } = pkce();
    const start = await authorize(cms, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'content:read schema:read',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const id = consentRequestId(start.location);
    const browser = await sessionFor(cms, cms.adminId);
    const view = await browser.call('GET', `/oauth/requests/${id}`);
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({
      client: { id: clientId, name: 'Writing Agent' },
      redirectUri: REDIRECT,
      redirectHost: '127.0.0.1:8976',
      scopes: [
        { scope: 'content:read', allowed: true },
        { scope: 'schema:read', allowed: true },
      ],
    });
    // Signed out: 401; with a token (even the Admin's): 403 — only a person in a browser consents.
    expect((await call(cms, 'GET', `/oauth/requests/${id}`)).status).toBe(401);
    const withToken = await call(cms, 'POST', `/oauth/requests/${id}/approve`, { token: cms.adminToken, body: {} });
    expect(withToken.status).toBe(403);
    // Approving needs the CSRF header like every session write.
    const noCsrf = await browser.call('POST', `/oauth/requests/${id}/approve`, { body: {}, csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe('CSRF_REJECTED');
  });

  it('refuses plain or missing PKCE by redirecting back with invalid_request', async () => {
    const cms = await testCms(dialect);
    const { clientId } = await publicClient(cms);
    const { verifier, challenge } = pkce();
    const base = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, state: 's1' };
    for (const extra of [
      { code_challenge: verifier, code_challenge_method: 'plain' },
      { code_challenge: challenge },
      {},
      { code_challenge: 'short', code_challenge_method: 'S256' },
    ]) {
      const res = await authorize(cms, { ...base, ...extra });
      expect(res.status).toBe(302);
      expect(res.location?.origin + res.location!.pathname).toBe(REDIRECT);
      expect(res.location?.searchParams.get('error'), JSON.stringify(extra)).toBe('invalid_request');
      expect(res.location?.searchParams.get('state')).toBe('s1');
    }
    const wrongType = await authorize(cms, {
      ...base,
      response_type: 'token',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(wrongType.location?.searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('never redirects to an unregistered URI, and matches redirect URIs exactly', async () => {
    const cms = await testCms(dialect);
    const { clientId } = await publicClient(cms, {
      redirect_uris: [REDIRECT, 'https://agent.example/cb?x=1'],
    });
    const { challenge } = pkce();
    const base = {
      response_type: 'code',
      client_id: clientId,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    for (const uri of [
      'https://evil.example/cb',
      'https://agent.example/cb',
      'https://agent.example/cb?x=1&y=2',
      'https://agent.example/cb/',
      'http://127.0.0.1:8976/callback/other',
      'http://localhost:8976/callback',
    ]) {
      const res = await authorize(cms, { ...base, redirect_uri: uri });
      expect(res.status, uri).toBe(400);
      expect(res.location).toBeNull();
      expect(res.res.body.error).toBe('invalid_request');
    }
    // More than one registered URI: redirect_uri is required.
    expect((await authorize(cms, base)).status).toBe(400);
    // Unknown client: no redirect either.
    const unknown = await authorize(cms, { ...base, client_id: 'nope', redirect_uri: REDIRECT });
    expect(unknown.status).toBe(400);
    // A loopback redirect may use another port (RFC 8252 §7.3).
    const otherPort = await authorize(cms, { ...base, redirect_uri: 'http://127.0.0.1:50123/callback' });
    expect(otherPort.status).toBe(302);
    consentRequestId(otherPort.location);
  });

  it('refuses a code with the wrong verifier, another redirect URI or another client', async () => {
    const cms = await testCms(dialect);
    const flow = await codeFlow(cms);
    const wrongVerifier = await redeem(cms, { ...flow, verifier: pkce().verifier });
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.body).toMatchObject({ error: 'invalid_grant' });
    expect(wrongVerifier.body.error_description).toMatch(/code_verifier/);
    const noVerifier = await redeem(cms, flow, { code_verifier: '' });
    expect(noVerifier.body.error).toBe('invalid_grant');
    const otherUri = await redeem(cms, flow, { redirect_uri: 'http://127.0.0.1:8976/other' });
    expect(otherUri.body.error).toBe('invalid_grant');
    const other = await publicClient(cms);
    const otherClient = await redeem(cms, { ...flow, clientId: other.clientId });
    expect(otherClient.body.error).toBe('invalid_grant');
    const unknownClient = await redeem(cms, { ...flow, clientId: 'no-such-client' });
    expect(unknownClient.status).toBe(401);
    expect(unknownClient.body.error).toBe('invalid_client');
    // None of the failures spent the code.
    expect((await redeem(cms, flow)).status).toBe(200);
  });

  it('uses a code once: a replay is refused and revokes the tokens it produced', async () => {
    const cms = await testCms(dialect);
    const flow = await codeFlow(cms);
    const first = await redeem(cms, flow);
    expect(first.status).toBe(200);
    expect((await call(cms, 'GET', '/auth/me', { token: first.body.access_token })).status).toBe(200);
    const replay = await redeem(cms, flow);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await call(cms, 'GET', '/auth/me', { token: first.body.access_token })).status).toBe(401);
    const refreshed = await form(cms, '/token', {
      grant_type: 'refresh_token',
      client_id: flow.clientId,
      refresh_token: first.body.refresh_token,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('lets a code live 60 seconds and a pending request 10 minutes', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    const flow = await codeFlow(cms);
    clock.advance(61_000);
    const late = await redeem(cms, flow);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: 'invalid_grant', error_description: 'Authorization code expired' });

    const { clientId } = await publicClient(cms);
    const start = await authorize(cms, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const id = consentRequestId(start.location);
    clock.advance(10 * 60_000 + 1);
    const approve = await flow.browser.call('POST', `/oauth/requests/${id}/approve`, { body: {} });
    expect(approve.status).toBe(404);
  });

  it('sends access_denied back when the user denies, and a request is answered once', async () => {
    const cms = await testCms(dialect);
    const { clientId } = await publicClient(cms);
    const start = await authorize(cms, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: 'st',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const id = consentRequestId(start.location);
    const browser = await sessionFor(cms, cms.adminId);
    const denied = await browser.call('POST', `/oauth/requests/${id}/deny`);
    expect(denied.status).toBe(200);
    const back = new URL(denied.body.data.redirectTo);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st');
    expect(back.searchParams.get('code')).toBeNull();
    expect((await browser.call('POST', `/oauth/requests/${id}/approve`, { body: {} })).status).toBe(404);
  });

  it('authenticates confidential clients with HTTP Basic or the body', async () => {
    const cms = await testCms(dialect);
    const reg = await register(cms, {
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const { client_id: id, client_secret: secret } = reg.body;
    const basic = (s: string) => ({
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(s)}`).toString('base64')}`,
    });

    const flow1 = await codeFlow(cms, { clientId: id });
    const noSecret = await redeem(cms, flow1);
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const wrong = await form(
      cms,
      '/token',
      { grant_type: 'authorization_code', code: flow1.code, redirect_uri: REDIRECT, code_verifier: flow1.verifier },
      basic('cms_ocs_wrong'),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    const good = await form(
      cms,
      '/token',
      { grant_type: 'authorization_code', code: flow1.code, redirect_uri: REDIRECT, code_verifier: flow1.verifier },
      basic(secret),
    );
    expect(good.status, JSON.stringify(good.body)).toBe(200);

    const flow2 = await codeFlow(cms, { clientId: id, browser: flow1.browser });
    const post = await redeem(cms, flow2, { client_secret: secret });
    expect(post.status).toBe(200);
  });

  it('answers protocol errors for malformed token requests', async () => {
    const cms = await testCms(dialect);
    const { clientId } = await publicClient(cms);
    expect((await form(cms, '/token', { client_id: clientId })).body.error).toBe('invalid_request');
    expect((await form(cms, '/token', { client_id: clientId, grant_type: 'password' })).body.error).toBe(
      'unsupported_grant_type',
    );
    expect((await form(cms, '/token', { client_id: clientId, grant_type: 'authorization_code' })).body.error).toBe(
      'invalid_request',
    );
    const repeated = await cms.app.request('/_cms/api/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `client_id=${clientId}&grant_type=authorization_code&code=a&code=b`,
    });
    expect(repeated.status).toBe(400);
    expect(((await repeated.json()) as { error: string }).error).toBe('invalid_request');
    const text = await cms.app.request('/_cms/api/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(((await text.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('issues tokens for the REST API and the MCP resource alike (RFC 8707)', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: 'https://cms.example.test' } });
    const flow = await codeFlow(cms);
    const foreign = await redeem(cms, flow, { resource: 'https://other.example/_cms/api/mcp' });
    expect(foreign.body.error).toBe('invalid_target');
    const mcp = await redeem(cms, flow, { resource: 'https://cms.example.test/_cms/api/mcp' });
    expect(mcp.status).toBe(200);
    await tokensFor(cms, { browser: flow.browser });
  });
});

import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { codeFlow, form, publicClient, redeem, tokensFor } from './flow.js';

describeEachDialect('OAuth tokens: rotation, reuse, revocation', (dialect) => {
  const refresh = (
    cms: Parameters<typeof form>[0],
    clientId: string,
    token: string,
    extra: Record<string, string> = {},
  ) => form(cms, '/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: token, ...extra });
  const me = (cms: Parameters<typeof call>[0], token: string) => call(cms, 'GET', '/auth/me', { token });

  it('rotates refresh tokens: each refresh gives a new pair and retires the old refresh token', async () => {
    const cms = await testCms(dialect);
    const { clientId, tokens } = await tokensFor(cms);
    const second = await refresh(cms, clientId, tokens.refresh_token);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(second.body.access_token).not.toBe(tokens.access_token);
    expect(second.body.scope).toBe('content:read content:write');
    expect((await me(cms, second.body.access_token)).status).toBe(200);
    // A narrower scope may be asked for; a wider one is refused.
    const wider = await refresh(cms, clientId, second.body.refresh_token, { scope: 'content:read admin' });
    expect(wider.body.error).toBe('invalid_scope');
    const narrower = await refresh(cms, clientId, second.body.refresh_token, { scope: 'content:read' });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('content:read');
    // Only the client it was issued to can use it.
    const other = await publicClient(cms);
    expect((await refresh(cms, other.clientId, narrower.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('revokes the whole family when a rotated refresh token comes back', async () => {
    const cms = await testCms(dialect);
    const { clientId, tokens } = await tokensFor(cms);
    const second = await refresh(cms, clientId, tokens.refresh_token);
    expect(second.status).toBe(200);
    const reuse = await refresh(cms, clientId, tokens.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // The thief's and the owner's tokens are all gone.
    expect((await me(cms, second.body.access_token)).status).toBe(401);
    expect((await me(cms, tokens.access_token)).status).toBe(401);
    expect((await refresh(cms, clientId, second.body.refresh_token)).body.error).toBe('invalid_grant');
    // Other grants of the same user are untouched.
    const other = await tokensFor(cms);
    expect((await me(cms, other.tokens.access_token)).status).toBe(200);
  });

  it('lets only one of two concurrent redemptions win, and treats the other as a replay', async () => {
    const cms = await testCms(dialect);
    const flow = await codeFlow(cms);
    const both = await Promise.all([redeem(cms, flow), redeem(cms, flow)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = both.find((r) => r.status === 200)!;
    expect((await me(cms, winner.body.access_token)).status).toBe(401);

    const fresh = await tokensFor(cms, { browser: flow.browser });
    const twice = await Promise.all([
      refresh(cms, fresh.clientId, fresh.tokens.refresh_token),
      refresh(cms, fresh.clientId, fresh.tokens.refresh_token),
    ]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 400]);
    const rotated = twice.find((r) => r.status === 200)!;
    expect((await refresh(cms, fresh.clientId, rotated.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('expires access tokens after an hour and refresh tokens after 30 days', async () => {
    const clock = new ManualClock('2026-05-01T00:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    const { clientId, tokens } = await tokensFor(cms);
    clock.advance(3600_000 + 3_000);
    expect((await me(cms, tokens.access_token)).status).toBe(401);
    const renewed = await refresh(cms, clientId, tokens.refresh_token);
    expect(renewed.status).toBe(200);
    clock.advance(30 * 24 * 3600_000 + 1);
    const late = await refresh(cms, clientId, renewed.body.refresh_token);
    expect(late.body).toMatchObject({ error: 'invalid_grant', error_description: 'Refresh token expired' });
  });

  it('revokes an access token alone, or a refresh token with its family (RFC 7009)', async () => {
    const cms = await testCms(dialect);
    const a = await tokensFor(cms);
    const revokeAccess = await form(cms, '/revoke', {
      client_id: a.clientId,
      token: a.tokens.access_token,
      token_type_hint: 'access_token',
    });
    expect(revokeAccess.status).toBe(200);
    expect((await me(cms, a.tokens.access_token)).status).toBe(401);
    // The refresh token still works after its access token was revoked.
    const renewed = await refresh(cms, a.clientId, a.tokens.refresh_token);
    expect(renewed.status).toBe(200);
    const revokeRefresh = await form(cms, '/revoke', { client_id: a.clientId, token: renewed.body.refresh_token });
    expect(revokeRefresh.status).toBe(200);
    expect((await me(cms, renewed.body.access_token)).status).toBe(401);
    expect((await refresh(cms, a.clientId, renewed.body.refresh_token)).body.error).toBe('invalid_grant');
    // Unknown or already revoked tokens: still 200.
    expect((await form(cms, '/revoke', { client_id: a.clientId, token: 'cms_oat_nothing' })).status).toBe(200);
    expect((await form(cms, '/revoke', { client_id: a.clientId, token: renewed.body.refresh_token })).status).toBe(200);
    // Another client cannot revoke it; no client at all is invalid_client.
    const b = await tokensFor(cms);
    const other = await publicClient(cms);
    expect((await form(cms, '/revoke', { client_id: other.clientId, token: b.tokens.access_token })).status).toBe(400);
    expect((await form(cms, '/revoke', { token: b.tokens.access_token })).status).toBe(401);
    expect((await form(cms, '/revoke', { client_id: b.clientId })).body.error).toBe('invalid_request');
    expect((await me(cms, b.tokens.access_token)).status).toBe(200);
  });

  it('stops the tokens of a disabled user, and refuses to refresh them', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(30);
    const { clientId, tokens } = await tokensFor(cms, { userId });
    expect((await me(cms, tokens.access_token)).status).toBe(200);
    const disabled = await call(cms, 'POST', `/admin/users/${userId}/disable`, { token: cms.adminToken });
    expect(disabled.status).toBe(200);
    expect((await me(cms, tokens.access_token)).status).toBe(401);
    expect((await refresh(cms, clientId, tokens.refresh_token)).body.error).toBe('invalid_grant');
    await call(cms, 'POST', `/admin/users/${userId}/enable`, { token: cms.adminToken });
    expect((await me(cms, tokens.access_token)).status).toBe(200);
  });
});

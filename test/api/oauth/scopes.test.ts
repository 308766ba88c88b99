import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { sessionFor } from '../../helpers/session.js';
import { authorize, codeFlow, consentRequestId, pkce, publicClient, REDIRECT, redeem } from './flow.js';

describeEachDialect('OAuth grants: request ∩ registered scopes ∩ role', (dialect) => {
  async function consentFor(
    cms: Awaited<ReturnType<typeof testCms>>,
    userId: string,
    scope: string,
    clientScope?: string,
  ) {
    const { clientId } = await publicClient(cms, clientScope ? { scope: clientScope } : {});
    const { verifier, challenge } = pkce();
    const start = await authorize(cms, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    if (start.status !== 302 || start.location?.pathname !== '/_cms/admin/oauth/consent')
      return { start, clientId, verifier };
    const browser = await sessionFor(cms, userId);
    return { start, clientId, verifier, id: consentRequestId(start.location), browser };
  }

  it('drops what a Subscriber cannot use: schema:write asked, content:read granted', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(ROLES.SUBSCRIBER);
    const c = await consentFor(cms, userId, 'content:read schema:write');
    const view = await c.browser!.call('GET', `/oauth/requests/${c.id}`);
    expect(view.body.data.scopes).toEqual([
      expect.objectContaining({ scope: 'content:read', allowed: true }),
      expect.objectContaining({ scope: 'schema:write', allowed: false }),
    ]);
    // Choosing it anyway is refused.
    const forced = await c.browser!.call('POST', `/oauth/requests/${c.id}/approve`, {
      body: { scopes: ['schema:write'] },
    });
    expect(forced.status).toBe(403);
    expect(forced.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const approved = await c.browser!.call('POST', `/oauth/requests/${c.id}/approve`, { body: {} });
    expect(approved.body.data.scopes).toEqual(['content:read']);
    const code = new URL(approved.body.data.redirectTo).searchParams.get('code')!;
    const tokens = await redeem(cms, { clientId: c.clientId, code, verifier: c.verifier });
    expect(tokens.body.scope).toBe('content:read');
    // The token cannot reach the schema API (role and scope both say no).
    const schema = await call(cms, 'POST', '/schema/collections', {
      token: tokens.body.access_token,
      body: { slug: 'x', label: 'X' },
    });
    expect(schema.status).toBe(403);
  });

  it('refuses an empty grant', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(ROLES.SUBSCRIBER);
    // Nothing the role can use: approval is refused, only denial remains.
    const c = await consentFor(cms, userId, 'schema:write settings:manage');
    const view = await c.browser!.call('GET', `/oauth/requests/${c.id}`);
    expect(view.body.data.scopes.every((s: { allowed: boolean }) => !s.allowed)).toBe(true);
    const approve = await c.browser!.call('POST', `/oauth/requests/${c.id}/approve`, { body: {} });
    expect(approve.status).toBe(403);
    expect(approve.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    // Unticking every scope is no approval either.
    const admin = await consentFor(cms, cms.adminId, 'content:read');
    const none = await admin.browser!.call('POST', `/oauth/requests/${admin.id}/approve`, { body: { scopes: [] } });
    expect(none.status).toBe(400);
    // Nothing in common with the registered scopes: invalid_scope straight back to the client.
    const outside = await consentFor(cms, cms.adminId, 'schema:write', 'content:read');
    expect(outside.start.status).toBe(302);
    expect(outside.start.location?.searchParams.get('error')).toBe('invalid_scope');
    const unknown = await consentFor(cms, cms.adminId, 'openid');
    expect(unknown.start.location?.searchParams.get('error')).toBe('invalid_scope');
  });

  it('lets the user untick scopes, and keeps the grant within the client registration', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(ROLES.EDITOR);
    const c = await consentFor(
      cms,
      userId,
      'content:read content:write schema:read admin',
      'content:read content:write schema:read',
    );
    const view = await c.browser!.call('GET', `/oauth/requests/${c.id}`);
    // `admin` is not registered: it is not even on the table.
    expect(view.body.data.scopes.map((s: { scope: string }) => s.scope)).toEqual([
      'content:read',
      'content:write',
      'schema:read',
    ]);
    const notAsked = await c.browser!.call('POST', `/oauth/requests/${c.id}/approve`, {
      body: { scopes: ['media:read'] },
    });
    expect(notAsked.status).toBe(400);
    const approved = await c.browser!.call('POST', `/oauth/requests/${c.id}/approve`, {
      body: { scopes: ['content:read'] },
    });
    expect(approved.body.data.scopes).toEqual(['content:read']);
    const code = new URL(approved.body.data.redirectTo).searchParams.get('code')!;
    const tokens = await redeem(cms, { clientId: c.clientId, code, verifier: c.verifier });
    expect(tokens.body.scope).toBe('content:read');
    const actor = await cms.services.tokens.authenticate(tokens.body.access_token);
    expect(actor?.scopes).toEqual(['content:read']);
  });

  it('requests default to the client registration', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(ROLES.AUTHOR);
    const flow = await codeFlow(cms, { userId, scope: '' });
    const tokens = await redeem(cms, flow);
    // Everything registered (all scopes) ∩ what an Author can use.
    expect(tokens.body.scope.split(' ').sort()).toEqual(['content:read', 'content:write', 'media:read', 'media:write']);
  });

  it('still checks the role at every request: a demoted user keeps the scope but loses the power', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(ROLES.EDITOR);
    const flow = await codeFlow(cms, { userId, scope: 'schema:read' });
    const tokens = await redeem(cms, flow);
    expect((await call(cms, 'GET', '/schema/collections', { token: tokens.body.access_token })).status).toBe(200);
    const demote = await call(cms, 'PUT', `/admin/users/${userId}`, { token: cms.adminToken, body: { role: 10 } });
    expect(demote.status).toBe(200);
    expect((await call(cms, 'GET', '/schema/collections', { token: tokens.body.access_token })).status).toBe(403);
  });
});

import type { Actor } from '../../auth/actor.js';
import { CmsError } from '../../core/errors.js';
import { newId, randomToken, sha256Hex } from '../../core/ids.js';
import { inTransaction, type ServiceContext } from '../context.js';
import type { ClientStore, OAuthClient } from './clients.js';
import { OAuthError } from './errors.js';
import { decideGrant, parseScope, type ScopeChoice, scopeChoices } from './grants.js';
import type { TokenIssuer, TokenResponse } from './issue.js';
import { isOwnResource } from './metadata.js';
import { challengeProblem, verifierMatches } from './pkce.js';
import { matchRedirectUri, redirectHost, withParams } from './redirect-uris.js';
import { requireSessionUser } from './session-only.js';
import {
  CODE_TTL_MS,
  CONSENT_PAGE,
  GRANT_AUTHORIZATION_CODE,
  issuerOf,
  REQUEST_TTL_MS,
  USED_CODE_RETENTION_MS,
} from './settings.js';

/** Query parameters of the authorization endpoint (RFC 6749 §4.1.1, RFC 7636, RFC 8707). */
export interface AuthorizeParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  resource?: string;
}

/** Either a redirect (to the consent page, or back to the client with an error), or an error shown in place. */
export type AuthorizeOutcome = { redirect: string };

export interface ConsentView {
  id: string;
  client: { id: string; name: string; uri: string | null };
  redirectUri: string;
  redirectHost: string;
  scopes: ScopeChoice[];
  expiresAt: string;
}

/** Scopes a request puts on the table: what it names within what the client registered (default: all registered). */
export function scopesOnTable(requested: string | undefined, client: OAuthClient): string[] {
  if (requested === undefined || requested.trim() === '') return [...client.scopes];
  return parseScope(requested).filter((s) => client.scopes.includes(s));
}

/**
 * Authorization code grant with PKCE: the authorize request waits for consent
 * in the admin app; an approval issues a single-use code (60 s) bound to the
 * client, the redirect URI and the PKCE challenge.
 */
export function authorizationOps(ctx: ServiceContext, clients: ClientStore, issuer: TokenIssuer) {
  const issuerUrl = issuerOf(ctx.config.publicUrl);

  async function start(params: AuthorizeParams): Promise<AuthorizeOutcome> {
    // Until client and redirect URI are known good, errors are shown here, never redirected (RFC 6749 §4.1.2.1).
    const client = params.client_id ? await clients.find(params.client_id) : null;
    if (!client) throw new OAuthError('invalid_request', 'Unknown or missing client_id');
    let redirectUri: string | null;
    if (params.redirect_uri) redirectUri = matchRedirectUri(client.redirectUris, params.redirect_uri);
    else redirectUri = client.redirectUris.length === 1 ? client.redirectUris[0] : null;
    if (!redirectUri) {
      throw new OAuthError('invalid_request', 'redirect_uri is missing or does not match a registered redirect URI');
    }
    const back = (error: string, description: string) => ({
      redirect: withParams(redirectUri, {
        error,
        error_description: description,
        state: params.state,
        iss: issuerUrl,
      }),
    });
    if (!client.grantTypes.includes(GRANT_AUTHORIZATION_CODE)) {
      return back('unauthorized_client', 'This client did not register the authorization_code grant');
    }
    if (params.response_type !== 'code') return back('unsupported_response_type', 'response_type must be "code"');
    const pkce = challengeProblem(params.code_challenge, params.code_challenge_method);
    if (pkce) return back('invalid_request', pkce);
    if (params.state && params.state.length > 2000) return back('invalid_request', 'state is too long');
    if (params.resource !== undefined && !isOwnResource(ctx.config.publicUrl, params.resource)) {
      return back('invalid_target', 'resource is not served by this authorization server');
    }
    const scopes = scopesOnTable(params.scope, client);
    if (scopes.length === 0) {
      return back('invalid_scope', 'None of the requested scopes is registered for this client or known here');
    }
    const now = ctx.clock.now();
    const id = randomToken(24);
    await ctx.db.deleteFrom('_cms_oauth_requests').where('expires_at', '<=', now.toISOString()).execute();
    await ctx.db
      .insertInto('_cms_oauth_requests')
      .values({
        id,
        client_id: client.id,
        redirect_uri: redirectUri,
        scopes: JSON.stringify(scopes),
        state: params.state ?? null,
        code_challenge: params.code_challenge as string,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + REQUEST_TTL_MS).toISOString(),
      })
      .execute();
    return { redirect: `${ctx.config.publicUrl}${CONSENT_PAGE}?request=${encodeURIComponent(id)}` };
  }

  async function loadRequest(id: string) {
    const row = await ctx.db
      .selectFrom('_cms_oauth_requests')
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', ctx.clock.now().toISOString())
      .executeTakeFirst();
    if (!row)
      throw new CmsError(
        'NOT_FOUND',
        'This authorization request is unknown, used or expired; start again from the application',
      );
    const client = await clients.find(row.client_id);
    if (!client) throw new CmsError('NOT_FOUND', 'The application of this request no longer exists');
    return { row, client, scopes: JSON.parse(row.scopes) as string[] };
  }

  /** What the consent page shows. */
  async function view(actor: Actor, id: string): Promise<ConsentView> {
    const { role } = requireSessionUser(actor);
    const { row, client, scopes } = await loadRequest(id);
    return {
      id: row.id,
      client: { id: client.id, name: client.name, uri: client.clientUri },
      redirectUri: row.redirect_uri,
      redirectHost: redirectHost(row.redirect_uri),
      scopes: scopeChoices(scopes, role),
      expiresAt: row.expires_at,
    };
  }

  /** Approve with the chosen scopes (default: all the role allows); returns where to send the browser. */
  async function approve(
    actor: Actor,
    id: string,
    chosen?: string[],
  ): Promise<{ redirectTo: string; scopes: string[] }> {
    const { userId, role } = requireSessionUser(actor);
    const { row, scopes } = await loadRequest(id);
    const grant = decideGrant(scopes, role, chosen);
    const code = randomToken(32);
    const now = ctx.clock.now();
    await inTransaction(ctx.db, async (trx) => {
      const taken = await trx.deleteFrom('_cms_oauth_requests').where('id', '=', id).executeTakeFirst();
      if (Number(taken.numDeletedRows) !== 1)
        throw new CmsError('NOT_FOUND', 'This authorization request was already answered');
      await trx
        .deleteFrom('_cms_oauth_codes')
        .where('created_at', '<=', new Date(now.getTime() - USED_CODE_RETENTION_MS).toISOString())
        .execute();
      await trx
        .insertInto('_cms_oauth_codes')
        .values({
          code_hash: sha256Hex(code),
          family_id: newId(),
          client_id: row.client_id,
          user_id: userId,
          redirect_uri: row.redirect_uri,
          scopes: JSON.stringify(grant),
          code_challenge: row.code_challenge,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
          used_at: null,
        })
        .execute();
    });
    return { redirectTo: withParams(row.redirect_uri, { code, state: row.state, iss: issuerUrl }), scopes: grant };
  }

  /** Deny: the client hears `access_denied`. */
  async function deny(actor: Actor, id: string): Promise<{ redirectTo: string }> {
    requireSessionUser(actor);
    const { row } = await loadRequest(id);
    const taken = await ctx.db.deleteFrom('_cms_oauth_requests').where('id', '=', id).executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1)
      throw new CmsError('NOT_FOUND', 'This authorization request was already answered');
    return {
      redirectTo: withParams(row.redirect_uri, {
        error: 'access_denied',
        error_description: 'The user denied the request',
        state: row.state,
        iss: issuerUrl,
      }),
    };
  }

  /**
   * Token endpoint, authorization_code grant. A code works once: a second
   * redemption revokes every token the first one produced (RFC 6749 §4.1.2).
   */
  async function exchange(
    client: OAuthClient,
    params: { code?: string; redirect_uri?: string; code_verifier?: string; resource?: string },
  ): Promise<TokenResponse> {
    if (!client.grantTypes.includes(GRANT_AUTHORIZATION_CODE)) {
      throw new OAuthError('unauthorized_client', 'This client did not register the authorization_code grant');
    }
    if (!params.code) throw new OAuthError('invalid_request', 'code is required');
    if (params.resource !== undefined && !isOwnResource(ctx.config.publicUrl, params.resource)) {
      throw new OAuthError('invalid_target', 'resource is not served by this authorization server');
    }
    const hash = sha256Hex(params.code);
    const row = await ctx.db
      .selectFrom('_cms_oauth_codes')
      .selectAll()
      .where('code_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.client_id !== client.id) throw new OAuthError('invalid_grant', 'Unknown authorization code');
    if (row.used_at) {
      await issuer.revokeFamily(ctx.db, row.family_id);
      throw new OAuthError('invalid_grant', 'Authorization code already used; the tokens issued for it are revoked');
    }
    const now = ctx.clock.now();
    if (Date.parse(row.expires_at) <= now.getTime())
      throw new OAuthError('invalid_grant', 'Authorization code expired');
    const sentUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (sentUri !== row.redirect_uri) {
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
    }
    if (!verifierMatches(params.code_verifier, row.code_challenge)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    const user = await ctx.db
      .selectFrom('_cms_users')
      .select('disabled')
      .where('id', '=', row.user_id)
      .executeTakeFirst();
    if (!user || user.disabled) throw new OAuthError('invalid_grant', 'The user of this grant cannot sign in');
    const outcome = await inTransaction(ctx.db, async (trx) => {
      const claimed = await trx
        .updateTable('_cms_oauth_codes')
        .set({ used_at: now.toISOString() })
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return null;
      return issuer.issuePair(trx, {
        familyId: row.family_id,
        clientId: client.id,
        userId: row.user_id,
        scopes: JSON.parse(row.scopes) as string[],
      });
    });
    if (!outcome) {
      // Redeemed concurrently: treat as a replay.
      await issuer.revokeFamily(ctx.db, row.family_id);
      throw new OAuthError('invalid_grant', 'Authorization code already used; the tokens issued for it are revoked');
    }
    return outcome;
  }

  return { start, view, approve, deny, exchange };
}

import { sha256Hex } from '../../core/ids.js';
import { inTransaction, type ServiceContext } from '../context.js';
import type { OAuthClient } from './clients.js';
import { OAuthError } from './errors.js';
import { parseScope } from './grants.js';
import type { TokenIssuer, TokenResponse } from './issue.js';
import { GRANT_REFRESH_TOKEN } from './settings.js';

/**
 * Refresh-token rotation and revocation. Each refresh returns a new pair and
 * retires the refresh token used; presenting a retired one again is taken as
 * theft and revokes the whole family (OAuth 2.1 §4.3.1).
 */
export function refreshOps(ctx: ServiceContext, issuer: TokenIssuer) {
  async function refresh(
    client: OAuthClient,
    params: { refresh_token?: string; scope?: string },
  ): Promise<TokenResponse> {
    if (!client.grantTypes.includes(GRANT_REFRESH_TOKEN)) {
      throw new OAuthError('unauthorized_client', 'This client did not register the refresh_token grant');
    }
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const row = await ctx.db
      .selectFrom('_cms_oauth_tokens as t')
      .innerJoin('_cms_users as u', 'u.id', 't.user_id')
      .select([
        't.id',
        't.kind',
        't.family_id',
        't.client_id',
        't.user_id',
        't.scopes',
        't.expires_at',
        't.rotated_at',
        't.revoked_at',
        'u.disabled',
      ])
      .where('t.token_hash', '=', sha256Hex(params.refresh_token))
      .executeTakeFirst();
    if (row?.kind !== 'refresh' || row.client_id !== client.id) {
      throw new OAuthError('invalid_grant', 'Unknown refresh token');
    }
    if (row.revoked_at) throw new OAuthError('invalid_grant', 'Refresh token revoked');
    if (row.rotated_at) {
      await issuer.revokeFamily(ctx.db, row.family_id);
      throw new OAuthError('invalid_grant', 'Refresh token already used; every token of this grant is revoked');
    }
    const now = ctx.clock.now();
    if (Date.parse(row.expires_at) <= now.getTime()) throw new OAuthError('invalid_grant', 'Refresh token expired');
    if (row.disabled) throw new OAuthError('invalid_grant', 'The user of this grant cannot sign in');
    const granted = JSON.parse(row.scopes) as string[];
    let scopes = granted;
    if (params.scope !== undefined && params.scope.trim() !== '') {
      scopes = parseScope(params.scope);
      const extra = scopes.find((s) => !granted.includes(s));
      if (extra) throw new OAuthError('invalid_scope', `"${extra}" was not part of the original grant`);
    }
    const pair = await inTransaction(ctx.db, async (trx) => {
      const claimed = await trx
        .updateTable('_cms_oauth_tokens')
        .set({ rotated_at: now.toISOString() })
        .where('id', '=', row.id)
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return null;
      return issuer.issuePair(trx, { familyId: row.family_id, clientId: client.id, userId: row.user_id, scopes });
    });
    if (!pair) {
      await issuer.revokeFamily(ctx.db, row.family_id);
      throw new OAuthError('invalid_grant', 'Refresh token already used; every token of this grant is revoked');
    }
    return pair;
  }

  /**
   * RFC 7009: revoke an access token (just it) or a refresh token (its whole
   * family, access tokens included). Unknown tokens are not an error; a token
   * of another client is refused.
   */
  async function revoke(client: OAuthClient, params: { token?: string; token_type_hint?: string }): Promise<void> {
    if (!params.token) throw new OAuthError('invalid_request', 'token is required');
    const row = await ctx.db
      .selectFrom('_cms_oauth_tokens')
      .select(['id', 'kind', 'family_id', 'client_id', 'revoked_at'])
      .where('token_hash', '=', sha256Hex(params.token))
      .executeTakeFirst();
    if (!row) return;
    if (row.client_id !== client.id)
      throw new OAuthError('unauthorized_client', 'This token was issued to another client');
    if (row.kind === 'refresh') {
      await issuer.revokeFamily(ctx.db, row.family_id);
      return;
    }
    if (row.revoked_at) return;
    await ctx.db
      .updateTable('_cms_oauth_tokens')
      .set({ revoked_at: ctx.clock.now().toISOString() })
      .where('id', '=', row.id)
      .execute();
    // The family lives on: only this access token ends (its refresh token can get a new one).
    await issuer.invalidate();
  }

  return { refresh, revoke };
}

import { newId, randomToken, sha256Hex } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';
import { formatScope } from './grants.js';
import { ACCESS_TOKEN_PREFIX, ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_PREFIX, REFRESH_TOKEN_TTL_MS } from './settings.js';

/** The token endpoint's success answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface Grant {
  familyId: string;
  clientId: string;
  userId: string;
  scopes: string[];
}

/**
 * Writing tokens: an access token (1 hour) and a refresh token (30 days,
 * rotated at each use) per issue, both in one family. Revoking a family
 * ends every token that descends from one consent.
 */
export function tokenIssuer(ctx: ServiceContext, invalidate: () => Promise<void>) {
  /** Issue a new access + refresh pair in the grant's family (inside the caller's transaction). */
  async function issuePair(db: Kdb, grant: Grant): Promise<TokenResponse> {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    const access = ACCESS_TOKEN_PREFIX + randomToken(32);
    const refresh = REFRESH_TOKEN_PREFIX + randomToken(32);
    const common = {
      family_id: grant.familyId,
      client_id: grant.clientId,
      user_id: grant.userId,
      scopes: JSON.stringify(grant.scopes),
      created_at: nowIso,
      rotated_at: null,
      revoked_at: null,
    };
    await db
      .insertInto('_cms_oauth_tokens')
      .values([
        {
          ...common,
          id: newId(),
          kind: 'access',
          token_hash: sha256Hex(access),
          expires_at: new Date(now.getTime() + ACCESS_TOKEN_TTL_MS).toISOString(),
        },
        {
          ...common,
          id: newId(),
          kind: 'refresh',
          token_hash: sha256Hex(refresh),
          expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS).toISOString(),
        },
      ])
      .execute();
    // Expired tokens are of no use, not even for reuse detection (an expired refresh token is refused anyway).
    await db.deleteFrom('_cms_oauth_tokens').where('expires_at', '<=', nowIso).execute();
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: Math.floor(ACCESS_TOKEN_TTL_MS / 1000),
      refresh_token: refresh,
      scope: formatScope(grant.scopes),
    };
  }

  /** End every token of a family (code replay, refresh-token reuse, revocation of a refresh token). */
  async function revokeFamily(db: Kdb, familyId: string): Promise<void> {
    await db
      .updateTable('_cms_oauth_tokens')
      .set({ revoked_at: ctx.clock.now().toISOString() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
    await invalidate();
  }

  return { issuePair, revokeFamily, invalidate };
}

export type TokenIssuer = ReturnType<typeof tokenIssuer>;

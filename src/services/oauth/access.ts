import { type Actor, tokenActor } from '../../auth/actor.js';
import type { Kdb } from '../../db/connect.js';

/**
 * Resolve an OAuth access token (by its SHA-256) to the actor it speaks for:
 * the user's current role, the granted scopes, the token's ID. Unknown,
 * revoked or expired tokens, and tokens of disabled users, give null — the
 * same rules as personal access tokens, so a scope never grants what the
 * role lacks.
 */
export async function oauthAccessActor(db: Kdb, hash: string, nowMs: number): Promise<Actor | null> {
  const row = await db
    .selectFrom('_cms_oauth_tokens as t')
    .innerJoin('_cms_users as u', 'u.id', 't.user_id')
    .select([
      't.id as token_id',
      't.kind',
      't.scopes',
      't.expires_at',
      't.revoked_at',
      'u.id as user_id',
      'u.name',
      'u.email',
      'u.role',
      'u.disabled',
    ])
    .where('t.token_hash', '=', hash)
    .executeTakeFirst();
  if (row?.kind !== 'access' || row.revoked_at || row.disabled) return null;
  if (Date.parse(row.expires_at) <= nowMs) return null;
  return tokenActor(row, 'oauth');
}

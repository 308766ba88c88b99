import type { Actor } from '../../auth/actor.js';
import { CmsError } from '../../core/errors.js';
import type { ServiceContext } from '../context.js';
import type { TokenIssuer } from './issue.js';

/** An application the user has let in: one live token family. */
export interface Connection {
  /** The family ID (revoking it ends every token of this consent). */
  id: string;
  client: { id: string; name: string; uri: string | null };
  scopes: string[];
  /** When the current refresh token was issued (sign-in or last refresh). */
  renewedAt: string;
  /** When the current refresh token expires unless used. */
  expiresAt: string;
}

function requireUser(actor: Actor): string {
  if (actor.kind !== 'user' || !actor.userId) throw new CmsError('UNAUTHORIZED', 'Sign in to continue');
  return actor.userId;
}

/**
 * The signed-in user's connected applications, and disconnecting one. A
 * family is live while its current refresh token is neither used, revoked
 * nor expired; each live family has exactly one such token.
 */
export function connectionOps(ctx: ServiceContext, issuer: TokenIssuer) {
  async function list(actor: Actor): Promise<Connection[]> {
    const userId = requireUser(actor);
    const rows = await ctx.db
      .selectFrom('_cms_oauth_tokens as t')
      .innerJoin('_cms_oauth_clients as c', 'c.id', 't.client_id')
      .select([
        't.family_id',
        't.scopes',
        't.created_at',
        't.expires_at',
        'c.id as client_id',
        'c.name',
        'c.client_uri',
      ])
      .where('t.user_id', '=', userId)
      .where('t.kind', '=', 'refresh')
      .where('t.rotated_at', 'is', null)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', ctx.clock.now().toISOString())
      .orderBy('t.created_at', 'desc')
      .limit(200)
      .execute();
    return rows.map((r) => ({
      id: r.family_id,
      client: { id: r.client_id, name: r.name, uri: r.client_uri },
      scopes: JSON.parse(r.scopes) as string[],
      renewedAt: r.created_at,
      expiresAt: r.expires_at,
    }));
  }

  async function disconnect(actor: Actor, familyId: string): Promise<void> {
    const userId = requireUser(actor);
    const own = await ctx.db
      .selectFrom('_cms_oauth_tokens')
      .select('id')
      .where('family_id', '=', familyId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (!own) throw new CmsError('NOT_FOUND', 'No such connected application');
    await issuer.revokeFamily(ctx.db, familyId);
  }

  return { list, disconnect };
}

import { validationError } from '../../core/errors.js';
import { randomToken } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { AuthChallengesTable } from '../../db/tables-identity.js';
import type { ServiceContext } from '../context.js';
import { isoAfter, MINUTE_MS } from './secrets.js';

/** A WebAuthn ceremony must finish within this time; the challenge then expires. */
export const CHALLENGE_TTL_MS = 5 * MINUTE_MS;

export type ChallengePurpose = 'register' | 'authenticate' | 'setup' | 'invite' | 'signup';

export interface StoredChallenge<D> {
  id: string;
  challenge: string;
  userId: string | null;
  data: D;
}

/**
 * Server-side WebAuthn challenges: short-lived and single use. Consuming one
 * deletes it in the same statement (DELETE … RETURNING), so two requests can
 * never both use it.
 */
export function challengeStore(ctx: ServiceContext) {
  async function create(
    purpose: ChallengePurpose,
    challenge: string,
    userId: string | null,
    data: unknown = null,
    db: Kdb = ctx.db,
  ): Promise<string> {
    const now = ctx.clock.now();
    await db.deleteFrom('_cms_auth_challenges').where('expires_at', '<=', now.toISOString()).execute();
    const id = randomToken(18);
    await db
      .insertInto('_cms_auth_challenges')
      .values({
        id,
        purpose,
        challenge,
        user_id: userId,
        data: data === null ? null : JSON.stringify(data),
        created_at: now.toISOString(),
        expires_at: isoAfter(now, CHALLENGE_TTL_MS),
      })
      .execute();
    return id;
  }

  /** Take a challenge (it is gone afterwards); throws when unknown, used, expired or for another purpose. */
  async function consume<D = unknown>(
    id: string,
    purpose: ChallengePurpose,
    db: Kdb = ctx.db,
  ): Promise<StoredChallenge<D>> {
    const row: AuthChallengesTable | undefined = await db
      .deleteFrom('_cms_auth_challenges')
      .where('id', '=', id)
      .where('purpose', '=', purpose)
      .returningAll()
      .executeTakeFirst();
    if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) {
      throw validationError('The passkey request is unknown, used or expired; start again', { reason: 'challenge' });
    }
    return {
      id: row.id,
      challenge: row.challenge,
      userId: row.user_id,
      data: (row.data === null ? null : JSON.parse(row.data)) as D,
    };
  }

  return { create, consume };
}

export type ChallengeStore = ReturnType<typeof challengeStore>;

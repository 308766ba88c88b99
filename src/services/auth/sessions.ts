import { type Actor, personActor } from '../../auth/actor.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';
import { DAY_MS, HOUR_MS, hashSecret, isoAfter, newSecret } from './secrets.js';

/**
 * Server-side sessions. The cookie holds 32 random bytes; the database holds
 * their SHA-256, the user and the expiry, so any process serves any request.
 * A session ends after 30 days without use (sliding) and at the latest 90 days
 * after sign-in. Every lookup re-reads the user, so disabling a user or
 * changing their role takes effect on the next request, in every process.
 */
export const SESSION_COOKIE = 'cms_session';
export const SESSION_IDLE_MS = 30 * DAY_MS;
export const SESSION_ABSOLUTE_MS = 90 * DAY_MS;
/** last_seen_at is refreshed at most this often, so reads do not write on every request. */
const TOUCH_EVERY_MS = HOUR_MS;

/** A sign-in through a login provider records which one (`provider:github`). */
export type ProviderSignIn = `provider:${string}`;

export type SignInMethod =
  | 'passkey'
  | 'magic_link'
  | 'recovery'
  | 'setup'
  | 'invite'
  | 'signup'
  | 'edge_access'
  | ProviderSignIn;

export interface NewSession {
  /** The cookie value (shown once; never stored). */
  id: string;
  expiresAt: string;
  /** Max-Age of the cookie: the absolute lifetime; the server enforces the idle limit. */
  maxAgeSeconds: number;
}

export function sessionsService(ctx: ServiceContext) {
  const secure = new URL(ctx.config.publicUrl).protocol === 'https:';

  /**
   * Open a session for a user who just proved who they are. The session the
   * browser held before (if any) is deleted: the id rotates at every sign-in.
   */
  async function create(
    db: Kdb,
    userId: string,
    method: SignInMethod,
    previousId?: string | null,
  ): Promise<NewSession> {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    if (previousId) await db.deleteFrom('_cms_sessions').where('id_hash', '=', hashSecret(previousId)).execute();
    await db.deleteFrom('_cms_sessions').where('expires_at', '<=', nowIso).execute();
    const { token, hash } = newSecret();
    const expiresAt = isoAfter(now, SESSION_IDLE_MS);
    await db
      .insertInto('_cms_sessions')
      .values({
        id_hash: hash,
        user_id: userId,
        method,
        created_at: nowIso,
        last_seen_at: nowIso,
        expires_at: expiresAt,
        absolute_expires_at: isoAfter(now, SESSION_ABSOLUTE_MS),
      })
      .execute();
    await db.updateTable('_cms_users').set({ last_sign_in_at: nowIso }).where('id', '=', userId).execute();
    return { id: token, expiresAt, maxAgeSeconds: Math.floor(SESSION_ABSOLUTE_MS / 1000) };
  }

  /** The actor of a session cookie, or null when unknown, expired or the user is disabled. */
  async function resolve(id: string): Promise<Actor | null> {
    return (await resolveSession(id))?.actor ?? null;
  }

  /** As resolve, with the instant the session was opened (the gateway mode compares it with its token's). */
  async function resolveSession(id: string): Promise<{ actor: Actor; createdAt: string } | null> {
    if (!id || id.length > 200) return null;
    const hash = hashSecret(id);
    const now = ctx.clock.now();
    const row = await ctx.db
      .selectFrom('_cms_sessions as s')
      .innerJoin('_cms_users as u', 'u.id', 's.user_id')
      .select([
        's.created_at',
        's.last_seen_at',
        's.expires_at',
        's.absolute_expires_at',
        'u.id',
        'u.name',
        'u.email',
        'u.role',
        'u.disabled',
      ])
      .where('s.id_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.disabled) return null;
    const nowMs = now.getTime();
    if (Date.parse(row.expires_at) <= nowMs || Date.parse(row.absolute_expires_at) <= nowMs) return null;
    if (nowMs - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) {
      const idle = Math.min(nowMs + SESSION_IDLE_MS, Date.parse(row.absolute_expires_at));
      await ctx.db
        .updateTable('_cms_sessions')
        .set({ last_seen_at: now.toISOString(), expires_at: new Date(idle).toISOString() })
        .where('id_hash', '=', hash)
        .execute();
    }
    return { actor: personActor(row, 'session'), createdAt: row.created_at };
  }

  /** Sign out: the session row is deleted (unknown ids are ignored). */
  async function revoke(id: string | null | undefined): Promise<void> {
    if (!id) return;
    await ctx.db.deleteFrom('_cms_sessions').where('id_hash', '=', hashSecret(id)).execute();
  }

  /** End every session of a user (disable, lost device). */
  async function revokeAllForUser(userId: string, db: Kdb = ctx.db): Promise<void> {
    await db.deleteFrom('_cms_sessions').where('user_id', '=', userId).execute();
  }

  /** Cookie attributes the doors use. */
  const cookie = { name: SESSION_COOKIE, secure, httpOnly: true, sameSite: 'Lax' as const, path: '/' };

  return { create, resolve, resolveSession, revoke, revokeAllForUser, cookie };
}

export type SessionsService = ReturnType<typeof sessionsService>;

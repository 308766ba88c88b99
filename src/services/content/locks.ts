import type { Actor } from '../../auth/actor.js';
import type { Clock } from '../../core/clock.js';
import { CmsError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { LocksTable } from '../../db/tables.js';
import type { CollectionInfo } from '../schema/model.js';

/** Edit lock lease length (spec: seven minutes). */
export const LOCK_LEASE_MS = 7 * 60 * 1000;

export interface LockHolder {
  userId: string;
  userName: string | null;
  acquiredAt: string;
  expiresAt: string;
}

export interface LockState {
  enabled: boolean;
  heldByCaller: boolean;
  holder: LockHolder | null;
}

const holderOf = (row: LocksTable): LockHolder => ({
  userId: row.user_id,
  userName: row.user_name,
  acquiredAt: row.acquired_at,
  expiresAt: row.expires_at,
});

export function locksEnabled(c: CollectionInfo): boolean {
  return c.supports.includes('editLock');
}

async function current(db: Kdb, c: CollectionInfo, entryId: string, now: Date): Promise<LocksTable | undefined> {
  const row = await db
    .selectFrom('_cms_locks')
    .selectAll()
    .where('collection_id', '=', c.id)
    .where('entry_id', '=', entryId)
    .executeTakeFirst();
  return live(row, now);
}

/** A lease that has not expired yet. */
function live(row: LocksTable | undefined, now: Date): LocksTable | undefined {
  if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return undefined;
  return row;
}

export function lockOps(clock: Clock) {
  const state = (row: LocksTable | undefined, actor: Actor): LockState => ({
    enabled: true,
    heldByCaller: !!row && row.user_id === actor.userId,
    holder: row ? holderOf(row) : null,
  });

  async function get(db: Kdb, c: CollectionInfo, entryId: string, actor: Actor): Promise<LockState> {
    if (!locksEnabled(c)) return { enabled: false, heldByCaller: false, holder: null };
    return state(await current(db, c, entryId, clock.now()), actor);
  }

  /**
   * Take or extend the lease. Another user's live lease is only replaced with
   * `takeover`; otherwise the state is returned with heldByCaller false.
   */
  async function acquire(
    db: Kdb,
    c: CollectionInfo,
    entryId: string,
    actor: Actor,
    opts: { token?: string | null; takeover?: boolean },
  ): Promise<LockState> {
    if (!locksEnabled(c)) return { enabled: false, heldByCaller: false, holder: null };
    const now = clock.now();
    const held = await current(db, c, entryId, now);
    if (held && held.user_id !== actor.userId && !opts.takeover) return state(held, actor);
    const sameHolder = held && held.user_id === actor.userId;
    const row: LocksTable = {
      collection_id: c.id,
      entry_id: entryId,
      user_id: actor.userId ?? 'system',
      user_name: actor.name,
      token: opts.token ?? (sameHolder ? held.token : null),
      acquired_at: sameHolder ? held.acquired_at : now.toISOString(),
      expires_at: new Date(now.getTime() + LOCK_LEASE_MS).toISOString(),
    };
    await db
      .insertInto('_cms_locks')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['collection_id', 'entry_id']).doUpdateSet({
          user_id: row.user_id,
          user_name: row.user_name,
          token: row.token,
          acquired_at: row.acquired_at,
          expires_at: row.expires_at,
        }),
      )
      .execute();
    return state(row, actor);
  }

  /** Release needs the same session token the lease was taken with (another tab cannot drop it by accident). */
  async function release(
    db: Kdb,
    c: CollectionInfo,
    entryId: string,
    actor: Actor,
    token: string | null,
  ): Promise<LockState> {
    if (!locksEnabled(c)) return { enabled: false, heldByCaller: false, holder: null };
    const held = await current(db, c, entryId, clock.now());
    if (!held) return state(undefined, actor);
    if (held.user_id !== actor.userId) {
      throw new CmsError('ENTRY_LOCKED', 'Another user holds the edit lock', { ...holderOf(held) });
    }
    if (held.token && held.token !== token) {
      throw new CmsError('CONFLICT', 'The lock was taken by another editing session; pass its token to release it');
    }
    await db.deleteFrom('_cms_locks').where('collection_id', '=', c.id).where('entry_id', '=', entryId).execute();
    return state(undefined, actor);
  }

  /**
   * Gate of every protected write: another user's live lease is a 409
   * ENTRY_LOCKED unless overridden; the holder's own save extends the lease.
   */
  async function guard(
    db: Kdb,
    c: CollectionInfo,
    entryId: string,
    actor: Actor,
    overrideLock: boolean | undefined,
    /** The lease as read with the entry (`loadForWrite`); read here when not given. */
    lease?: LocksTable | null,
  ): Promise<void> {
    if (!locksEnabled(c)) return;
    const now = clock.now();
    const held = lease === undefined ? await current(db, c, entryId, now) : live(lease ?? undefined, now);
    if (!held) return;
    if (held.user_id !== actor.userId) {
      if (overrideLock) return;
      throw new CmsError('ENTRY_LOCKED', `${held.user_name ?? 'Another user'} is editing this entry`, {
        ...holderOf(held),
      });
    }
    await db
      .updateTable('_cms_locks')
      .set({ expires_at: new Date(now.getTime() + LOCK_LEASE_MS).toISOString() })
      .where('collection_id', '=', c.id)
      .where('entry_id', '=', entryId)
      .execute();
  }

  async function drop(db: Kdb, c: CollectionInfo, entryId: string): Promise<void> {
    await db.deleteFrom('_cms_locks').where('collection_id', '=', c.id).where('entry_id', '=', entryId).execute();
  }

  return { get, acquire, release, guard, drop };
}

export type LockOps = ReturnType<typeof lockOps>;

import type { Actor } from '../../auth/actor.js';
import { assertCanEdit, assertVisible, requireDraftReader } from './access.js';
import { type ContentDeps, collectionFor } from './deps.js';
import type { LockState } from './locks.js';
import { loadRow } from './rows.js';

/** Edit lock operations as callers see them (permission checks around the lease mechanics). */
export function entryLockOps(deps: ContentDeps) {
  const { ctx } = deps;

  async function get(actor: Actor, collection: string, id: string): Promise<LockState> {
    requireDraftReader(actor);
    const { c } = await collectionFor(deps, collection);
    assertVisible(actor, await loadRow(ctx.db, c, id), c);
    return deps.locks.get(ctx.db, c, id, actor);
  }

  async function acquire(
    actor: Actor,
    collection: string,
    id: string,
    opts: { token?: string | null; takeover?: boolean },
  ): Promise<LockState> {
    const { c } = await collectionFor(deps, collection);
    const row = assertVisible(actor, await loadRow(ctx.db, c, id), c);
    assertCanEdit(actor, row);
    return deps.locks.acquire(ctx.db, c, id, actor, opts);
  }

  async function release(actor: Actor, collection: string, id: string, token: string | null): Promise<LockState> {
    const { c } = await collectionFor(deps, collection);
    const row = assertVisible(actor, await loadRow(ctx.db, c, id), c);
    assertCanEdit(actor, row);
    return deps.locks.release(ctx.db, c, id, actor, token);
  }

  return { get, acquire, release };
}

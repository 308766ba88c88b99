import { CmsError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';

/** Activation states (spec "Media usage activation"). */
export const ACTIVATION_STATES = ['expanded', 'activating', 'active'] as const;
export type ActivationState = (typeof ACTIVATION_STATES)[number];

export interface StateRow {
  state: string;
  last_error_code: string | null;
  started_at: string | null;
  activated_at: string | null;
  updated_at: string;
}

export const activationBlocked = () =>
  new CmsError(
    'MEDIA_USAGE_ACTIVATION_IN_PROGRESS',
    'Media usage tracking is being activated; writes are paused until it is active',
  );

/**
 * The one activation row. `active` is final (activation cannot be reset), so
 * once a process has seen it, it never reads the row for a write again: on an
 * active site tracking costs writes nothing here.
 */
export function stateOps(ctx: ServiceContext) {
  let knownActive = false;

  async function read(db: Kdb = ctx.db, share = false): Promise<StateRow> {
    let q = db
      .selectFrom('_cms_media_usage_state')
      .select(['state', 'last_error_code', 'started_at', 'activated_at', 'updated_at'])
      .where('id', '=', 'site');
    // Writers hold the row shared until they commit, so the switch to `activating` waits for them.
    if (share && ctx.dialect === 'postgres') q = q.forShare();
    const row = await q.executeTakeFirst();
    if (!row) throw new CmsError('INTERNAL_ERROR', 'The media usage state row is missing');
    if (row.state === 'active') knownActive = true;
    return row;
  }

  /**
   * Called inside every entry and schema write: `track` when the write must
   * maintain the index, `skip` while tracking is off (or in a state a newer
   * version wrote), and a refusal while activation is in progress.
   */
  async function forWrite(trx: Kdb): Promise<'track' | 'skip'> {
    if (knownActive) return 'track';
    const row = await read(trx, true);
    if (row.state === 'active') return 'track';
    if (row.state === 'activating') throw activationBlocked();
    return 'skip';
  }

  return {
    read,
    forWrite,
    /** Whether this process has seen the final state. */
    get knownActive() {
      return knownActive;
    },
    /** Forget the cached state (after the row was changed by hand, outside the service). */
    forget() {
      knownActive = false;
    },
  };
}

export type StateOps = ReturnType<typeof stateOps>;

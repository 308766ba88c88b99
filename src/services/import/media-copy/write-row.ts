import type { Actor } from '../../../auth/actor.js';
import type { Kdb } from '../../../db/connect.js';
import type { EntryRow } from '../../content/model.js';
import { dyn, encodeData } from '../../content/rows.js';
import type { CollectionInfo } from '../../schema/model.js';
import type { MediaCopyDeps } from './deps.js';

/**
 * Write changed values into an entry's row after a media-copy step changed
 * them: the version moves on (a stale `_rev` conflicts) and the write
 * listeners (media checks, usage and search indexes) run in the same
 * transaction, as for any update. `previous` is the value set the listeners
 * compare against when it is not the row's own (a pending draft's).
 */
export async function writeEntryRow(
  deps: MediaCopyDeps,
  trx: Kdb,
  c: CollectionInfo,
  row: EntryRow,
  change: Record<string, unknown>,
  actor: Actor,
  now: string,
  previous?: Record<string, unknown>,
): Promise<void> {
  await dyn(trx)
    .updateTable(c.table)
    .set({ ...encodeData(deps.ctx.dialect, c, change), updated_at: now, version: row.version + 1 })
    .where('id', '=', row.id)
    .execute();
  await deps.content.hooks.runAfterWrite(trx, {
    kind: 'update',
    collection: c,
    ids: [row.id],
    group: row.translation_group,
    actor,
    now,
    ...(previous ? { previous: { [row.id]: previous } } : {}),
  });
}

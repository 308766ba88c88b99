import type { Actor } from '../../auth/actor.js';
import type { Kdb } from '../../db/connect.js';
import type { CollectionInfo } from '../schema/model.js';

/** Who scheduled the publication: the scheduler publishes with that user's rights. */
export async function recordScheduler(
  trx: Kdb,
  c: CollectionInfo,
  id: string,
  actor: Actor,
  now: string,
): Promise<void> {
  await forgetScheduler(trx, c, id);
  await trx
    .insertInto('_cms_entry_schedules')
    .values({ collection_id: c.id, entry_id: id, user_id: actor.userId, created_at: now })
    .execute();
}

export async function forgetScheduler(trx: Kdb, c: CollectionInfo, id: string): Promise<void> {
  await trx.deleteFrom('_cms_entry_schedules').where('collection_id', '=', c.id).where('entry_id', '=', id).execute();
}

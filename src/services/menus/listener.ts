import type { Kdb } from '../../db/connect.js';
import type { EntryChange } from '../content/hooks.js';
import { dyn } from '../content/rows.js';
import { removeItemsTargeting } from './cleanup.js';

/**
 * Menu items reference a translation group, so they survive a translation
 * being deleted; when the last entry of the group is deleted for good, the
 * items pointing at it go (their children move up). Trashed and unpublished
 * entries keep their items: readers without draft access simply do not see
 * them until the entry is live again.
 */
export async function onEntryDeleted(trx: Kdb, change: EntryChange): Promise<void> {
  if (change.kind !== 'delete') return;
  const left = await dyn(trx)
    .selectFrom(change.collection.table)
    .select('id')
    .where('translation_group', '=', change.group)
    .limit(1)
    .executeTakeFirst();
  if (!left) await removeItemsTargeting(trx, 'content', [change.group], change.now);
}

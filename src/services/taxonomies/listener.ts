import type { Kdb } from '../../db/connect.js';
import type { EntryChange } from '../content/hooks.js';
import { dyn } from '../content/rows.js';
import { recountEntries } from './counts.js';

/** The writes that can move an entry into or out of the counts (published and not in the trash). */
const COUNTED_KINDS: ReadonlySet<EntryChange['kind']> = new Set(['publish', 'unpublish', 'trash', 'restore', 'delete']);

async function hasAssignments(trx: Kdb, collectionId: string, group: string): Promise<boolean> {
  const row = await trx
    .selectFrom('_cms_content_terms')
    .select('term_group')
    .where('collection_id', '=', collectionId)
    .where('entry_group', '=', group)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Keeps term assignments and counts moving with entry writes, inside the
 * writing transaction: a duplicate takes its source's terms, a publish,
 * unpublish, trash or restore adjusts the counts, and deleting the last entry
 * of a translation group for good removes the group's assignments. A
 * translation needs nothing: it joins a group whose assignments it shares.
 */
export async function onEntryChange(trx: Kdb, change: EntryChange): Promise<void> {
  const c = change.collection;
  if (change.kind === 'duplicate' && change.duplicateOf) {
    const source: { translation_group: string } | undefined = await dyn(trx)
      .selectFrom(c.table)
      .select('translation_group')
      .where('id', '=', change.duplicateOf)
      .executeTakeFirst();
    if (source && source.translation_group !== change.group) {
      const copied = await trx
        .selectFrom('_cms_content_terms')
        .selectAll()
        .where('collection_id', '=', c.id)
        .where('entry_group', '=', source.translation_group)
        .execute();
      if (copied.length) {
        await trx
          .insertInto('_cms_content_terms')
          .values(copied.map((a) => ({ ...a, entry_group: change.group, created_at: change.now })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    }
  }
  // Counts are of published entries not in the trash: writes that change neither status nor trash change none.
  if (!COUNTED_KINDS.has(change.kind)) return;
  // Entries of a group without assignments add nothing to any count: one indexed lookup and done.
  if (!(await hasAssignments(trx, c.id, change.group))) return;
  await recountEntries(trx, c, change.ids);
  if (change.kind === 'delete') {
    const left = await dyn(trx)
      .selectFrom(c.table)
      .select('id')
      .where('translation_group', '=', change.group)
      .limit(1)
      .executeTakeFirst();
    if (!left) {
      await trx
        .deleteFrom('_cms_content_terms')
        .where('collection_id', '=', c.id)
        .where('entry_group', '=', change.group)
        .execute();
    }
  }
}

import { isoNow } from '../../core/clock.js';
import type { Kdb } from '../../db/connect.js';
import type { EntryChange } from '../content/hooks.js';
import { MEDIA_CAPABLE } from '../media/field-refs.js';
import type { SchemaChange } from '../schema/listeners.js';
import type { CollectionInfo, FieldInfo } from '../schema/model.js';
import type { UsageDeps } from './deps.js';
import { dropEntries, indexesCollection, lockCollectionIndex, reindexEntries } from './entries.js';
import { enqueueWork } from './work-rows.js';

/**
 * Keep the index in step with every entry and schema write, inside the
 * writing transaction (a listener that throws rolls the write back): writes
 * are refused while activation runs, skipped while tracking is off, and
 * otherwise rewrite the rows of the entries they touched.
 */
export function listenerOps(deps: UsageDeps) {
  const { ctx, schema, state } = deps;

  async function onEntryWrite(trx: Kdb, change: EntryChange): Promise<void> {
    if ((await state.forWrite(trx)) === 'skip') return;
    const c = change.collection;
    // Collections without image, file, rich-text, repeater or block fields have no rows to keep.
    if (!indexesCollection(c)) return;
    await lockCollectionIndex(trx, ctx.dialect, c.id, 'shared');
    if (change.kind === 'delete' || change.kind === 'trash') {
      await dropEntries(trx, c, change.ids);
      return;
    }
    const fresh = change.kind === 'create' || change.kind === 'duplicate';
    await reindexEntries(trx, c, change.ids, await schema.snapshot(), fresh);
  }

  async function onSchemaChange(trx: Kdb, change: SchemaChange): Promise<void> {
    if ((await state.forWrite(trx)) === 'skip') return;
    const now = isoNow(ctx.clock);
    const ids = new Set([...change.before.collectionsById.keys(), ...change.after.collectionsById.keys()]);
    for (const id of ids) {
      const before = change.before.collectionsById.get(id);
      const after = change.after.collectionsById.get(id);
      if (before && !after) {
        await collectionDeleted(trx, before, now);
      } else if (!before && after) {
        // A new collection has no entries: its (empty) index is complete.
        await trx
          .insertInto('_cms_media_usage_collections')
          .values({
            collection_id: id,
            slug: after.slug,
            status: 'complete',
            entries: 0,
            referencing: 0,
            references: 0,
            skipped: 0,
            last_error_code: null,
            updated_at: now,
          })
          .onConflict((oc) => oc.column('collection_id').doNothing())
          .execute();
      } else if (before && after) {
        await collectionChanged(trx, before, after, now);
      }
    }
  }

  /** The rows go in the background (there may be many): counts stop including them at once. */
  async function collectionDeleted(trx: Kdb, c: CollectionInfo, now: string): Promise<void> {
    await trx.deleteFrom('_cms_media_usage_collections').where('collection_id', '=', c.id).execute();
    await trx
      .updateTable('_cms_media_usage_work')
      .set((eb) => ({
        status: 'done',
        lease_token: null,
        lease_expires_at: null,
        updated_at: now,
        version: eb('version', '+', 1),
      }))
      .where('collection_id', '=', c.id)
      .where('kind', '=', 'index')
      .execute();
    const any = await trx
      .selectFrom('_cms_media_usage')
      .select('entry_id')
      .where('collection_id', '=', c.id)
      .limit(1)
      .executeTakeFirst();
    if (any) await enqueueWork(trx, 'collection-deletion', c, now);
  }

  async function collectionChanged(trx: Kdb, before: CollectionInfo, after: CollectionInfo, now: string) {
    const kept = new Map(after.fields.map((f) => [f.id, f]));
    const gone = before.fields.filter((f) => MEDIA_CAPABLE.has(f.type) && !kept.has(f.id)).map((f) => f.id);
    if (gone.length) {
      await lockCollectionIndex(trx, ctx.dialect, after.id, 'exclusive');
      await trx
        .deleteFrom('_cms_media_usage')
        .where('collection_id', '=', after.id)
        .where('field_id', 'in', gone)
        .execute();
    }
    // A field whose media shape changed reads existing values differently: the rows no longer
    // match them until the collection is repaired. New fields start empty (unless a default fills them).
    const old = new Map(before.fields.map((f) => [f.id, f]));
    const reshaped = after.fields.some((f) => {
      const was = old.get(f.id);
      if (!was) return MEDIA_CAPABLE.has(f.type) && f.defaultValue !== undefined && f.defaultValue !== null;
      return mediaShape(was) !== mediaShape(f);
    });
    const update: { slug?: string; status?: string; updated_at: string } = { updated_at: now };
    if (before.slug !== after.slug) update.slug = after.slug;
    if (reshaped) update.status = 'stale';
    if (update.slug || update.status) {
      await trx.updateTable('_cms_media_usage_collections').set(update).where('collection_id', '=', after.id).execute();
    }
  }

  return { onEntryWrite, onSchemaChange };
}

/** What decides which references a field's values hold: its type, and for repeaters the sub-fields. */
function mediaShape(f: FieldInfo): string {
  if (!MEDIA_CAPABLE.has(f.type)) return 'none';
  if (f.type !== 'repeater') return f.type;
  const sub = Array.isArray(f.validation?.subFields) ? (f.validation.subFields as Array<Partial<FieldInfo>>) : [];
  return `repeater:${sub.map((s) => `${s.slug}:${s.type}`).join(',')}`;
}

import type { Kdb } from '../../db/connect.js';
import type { EntryChange } from '../content/index.js';
import type { SchemaChange } from '../schema/index.js';
import type { CollectionInfo } from '../schema/model.js';
import type { BuildOps, IndexDeps } from './build.js';
import { documentsOf, loadEntries } from './documents.js';
import { lockCollection, readSettings } from './settings.js';

/**
 * Keep indexes in step with the writes that change them, inside the writing
 * transaction: an entry write rewrites that entry's documents (in the index
 * and in a build in progress); a schema change reshapes or drops the index.
 */
export function listenerOps(deps: IndexDeps, builds: BuildOps) {
  const { ctx, engine } = deps;

  async function onEntryWrite(trx: Kdb, change: EntryChange): Promise<void> {
    const c = change.collection;
    // Collections without search cost nothing. A write that still saw search off while another
    // process turned it on is caught up at the end of the build (build.ts, catchUp).
    if (!c.supports.includes('search')) return;
    await lockCollection(trx, ctx.dialect, c.id, 'shared');
    const s = await readSettings(trx, c.id);
    const shapes = [s?.index, s?.build].filter((x) => !!x);
    if (!shapes.length) return;
    const entries = await loadEntries(trx, c, change.ids);
    // A create (an import batch too) or a duplicate inserted these rows in this transaction under new IDs: the
    // index (and a build in progress, which replaces whatever it finds) has nothing of theirs to remove.
    const fresh = change.kind === 'create' || change.kind === 'duplicate';
    for (const shape of shapes) {
      const docs = entries.flatMap((e) => documentsOf(c, e, shape.tiers));
      await engine.write(trx, shape.table, shape.tokenizer, change.ids, docs, { fresh });
    }
  }

  async function onSchemaChange(trx: Kdb, change: SchemaChange): Promise<void> {
    const ids = new Set([...change.before.collectionsById.keys(), ...change.after.collectionsById.keys()]);
    for (const id of ids) {
      const before = change.before.collectionsById.get(id);
      const after = change.after.collectionsById.get(id) ?? null;
      if (!after) {
        await builds.reconcile(trx, id, null, { reason: 'collection deleted' });
        continue;
      }
      if (before && !searchChanged(before, after)) continue;
      await builds.reconcile(trx, id, after, {
        reason: before?.supports.includes('search') ? 'schema change' : 'enabled',
        emptyFields: newEmptyFields(before, after),
      });
    }
  }

  return { onEntryWrite, onSchemaChange };
}

/** What the index depends on: the search flag and each searchable field's identity and column. */
function searchSignature(c: CollectionInfo): string {
  if (!c.supports.includes('search')) return 'off';
  return c.fields
    .filter((f) => f.searchable && f.column !== null)
    .map((f) => `${f.id}:${f.column}`)
    .sort()
    .join(',');
}

function searchChanged(before: CollectionInfo, after: CollectionInfo): boolean {
  return searchSignature(before) !== searchSignature(after);
}

/** Fields added by this change without a default: no entry holds a value for them yet. */
function newEmptyFields(before: CollectionInfo | undefined, after: CollectionInfo): Set<string> {
  const old = new Set(before?.fields.map((f) => f.id) ?? []);
  return new Set(
    after.fields
      .filter((f) => !old.has(f.id) && (f.defaultValue === undefined || f.defaultValue === null))
      .map((f) => f.id),
  );
}

import type { SchemaChange } from './listeners.js';
import type { CollectionInfo } from './model.js';

/**
 * Collections a schema change deleted (in `before`, gone from `after`, by ID).
 * The domains that keep rows keyed by a collection (term assignments, menu
 * items, comments, SEO, search) remove them through this in their schema
 * listener, inside the deleting transaction, so a collection created later
 * with the same slug starts clean.
 */
export function deletedCollections(change: SchemaChange): CollectionInfo[] {
  return [...change.before.collectionsById.values()].filter((c) => !change.after.collectionsById.has(c.id));
}

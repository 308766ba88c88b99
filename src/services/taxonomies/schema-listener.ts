import type { Kdb } from '../../db/connect.js';
import { deletedCollections } from '../schema/deleted.js';
import type { SchemaChange } from '../schema/listeners.js';
import { collectionsOf } from './model.js';

/**
 * A deleted collection takes its term assignments and their counts with it,
 * and leaves the taxonomies that were attached to it (inside the schema
 * change's transaction). Counts are kept per collection, so the other
 * collections' counts stay exact.
 */
export function taxonomySchemaListener(now: () => string) {
  return async (trx: Kdb, change: SchemaChange): Promise<void> => {
    const gone = deletedCollections(change);
    if (!gone.length) return;
    const ids = gone.map((c) => c.id);
    const slugs = new Set(gone.map((c) => c.slug));
    await trx.deleteFrom('_cms_content_terms').where('collection_id', 'in', ids).execute();
    await trx.deleteFrom('_cms_term_counted').where('collection_id', 'in', ids).execute();
    await trx.deleteFrom('_cms_term_counts').where('collection_id', 'in', ids).execute();
    const taxonomies = await trx.selectFrom('_cms_taxonomies').select(['name', 'collections']).execute();
    for (const t of taxonomies) {
      const list = collectionsOf(t);
      const kept = list.filter((s) => !slugs.has(s));
      if (kept.length === list.length) continue;
      await trx
        .updateTable('_cms_taxonomies')
        .set({ collections: JSON.stringify(kept), updated_at: now() })
        .where('name', '=', t.name)
        .execute();
    }
  };
}

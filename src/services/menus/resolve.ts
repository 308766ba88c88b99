import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import type { MenuItemsTable } from '../../db/tables-structure.js';
import { titleColumn } from '../content/references.js';
import { dyn } from '../content/rows.js';
import { pickByChain } from '../locales.js';
import type { SchemaSnapshot } from '../schema/model.js';
import type { MenuTarget } from './model.js';

/**
 * Resolve the targets of content and term items to the reader's locale
 * chain in one statement per collection plus one for terms. Readers without
 * draft access only get published, non-trashed entries.
 */
export async function resolveTargets(
  db: Kdb,
  snap: SchemaSnapshot,
  items: MenuItemsTable[],
  chain: string[],
  drafts: boolean,
): Promise<Map<string, MenuTarget | null>> {
  const out = new Map<string, MenuTarget | null>();
  const byCollection = new Map<string, MenuItemsTable[]>();
  const termItems: MenuItemsTable[] = [];
  for (const item of items) {
    if (item.kind === 'content' && item.collection_id && item.target_group) {
      byCollection.set(item.collection_id, [...(byCollection.get(item.collection_id) ?? []), item]);
    } else if (item.kind === 'term' && item.target_group) termItems.push(item);
  }
  for (const [collectionId, list] of byCollection) {
    const c = snap.collectionsById.get(collectionId);
    if (!c) continue;
    const title = titleColumn(c);
    let q = dyn(db)
      .selectFrom(c.table)
      .select(['id', 'slug', 'locale', 'translation_group', 'status', 'deleted_at'])
      .select(title ? sql`cast(${sql.ref(title)} as text)`.as('title') : sql`cast(null as text)`.as('title'))
      .where(
        'translation_group',
        'in',
        list.map((i) => i.target_group),
      )
      .where('locale', 'in', chain);
    if (!drafts) q = q.where('status', '=', 'published').where('deleted_at', 'is', null);
    const rows: Array<{
      id: string;
      slug: string | null;
      locale: string;
      translation_group: string;
      status: string;
      deleted_at: string | null;
      title: string | null;
    }> = await q.execute();
    const best = pickByChain(rows, chain, (r) => r.translation_group);
    for (const item of list) {
      const r = best.get(item.target_group as string);
      out.set(
        item.id,
        r
          ? {
              collection: c.slug,
              id: r.id,
              slug: r.slug,
              title: r.title,
              locale: r.locale,
              translationGroup: r.translation_group,
              status: r.deleted_at ? 'trashed' : r.status,
            }
          : null,
      );
    }
  }
  if (termItems.length) {
    const rows = await db
      .selectFrom('_cms_terms')
      .selectAll()
      .where(
        'translation_group',
        'in',
        termItems.map((i) => i.target_group as string),
      )
      .where('locale', 'in', chain)
      .execute();
    const best = pickByChain(rows, chain, (r) => r.translation_group);
    for (const item of termItems) {
      const t = best.get(item.target_group as string);
      out.set(
        item.id,
        t
          ? {
              taxonomy: t.taxonomy,
              id: t.id,
              slug: t.slug,
              title: t.label,
              locale: t.locale,
              translationGroup: t.translation_group,
            }
          : null,
      );
    }
  }
  return out;
}

import type { Kdb } from '../../db/connect.js';
import { removeLifting } from './tree.js';

/**
 * Remove the menu items that point at records which no longer exist (every
 * entry of a translation group deleted for good, a term group removed); the
 * children of a removed item move up into its place. Called inside the
 * deleting transaction by the content listener and the taxonomy domain.
 */
export async function removeItemsTargeting(
  trx: Kdb,
  kind: 'content' | 'term',
  groups: string[],
  now: string,
): Promise<number> {
  if (!groups.length) return 0;
  let removed = 0;
  for (let i = 0; i < groups.length; i += 500) {
    const chunk = groups.slice(i, i + 500);
    const hits = await trx
      .selectFrom('_cms_menu_items')
      .select(['id', 'menu_id'])
      .where('kind', '=', kind)
      .where('target_group', 'in', chunk)
      .execute();
    const byMenu = new Map<string, Set<string>>();
    for (const h of hits) byMenu.set(h.menu_id, (byMenu.get(h.menu_id) ?? new Set()).add(h.id));
    for (const [menuId, ids] of byMenu) removed += await rewriteWithout(trx, menuId, ids, now);
  }
  return removed;
}

/** Remove the items that point at entries of deleted collections (their children move up). */
export async function removeItemsOfCollections(trx: Kdb, collectionIds: string[], now: string): Promise<number> {
  if (!collectionIds.length) return 0;
  const hits = await trx
    .selectFrom('_cms_menu_items')
    .select(['id', 'menu_id'])
    .where('kind', '=', 'content')
    .where('collection_id', 'in', collectionIds)
    .execute();
  const byMenu = new Map<string, Set<string>>();
  for (const h of hits) byMenu.set(h.menu_id, (byMenu.get(h.menu_id) ?? new Set()).add(h.id));
  let removed = 0;
  for (const [menuId, ids] of byMenu) removed += await rewriteWithout(trx, menuId, ids, now);
  return removed;
}

/** Delete `remove` from one menu, lifting their children, and write back the changed rows. */
export async function rewriteWithout(trx: Kdb, menuId: string, remove: Set<string>, now: string): Promise<number> {
  const items = await trx
    .selectFrom('_cms_menu_items')
    .select(['id', 'parent_id', 'position'])
    .where('menu_id', '=', menuId)
    .execute();
  const before = new Map(items.map((i) => [i.id, i]));
  const after = removeLifting(items, remove);
  for (const item of after) {
    const old = before.get(item.id);
    if (old && old.parent_id === item.parent_id && old.position === item.position) continue;
    await trx
      .updateTable('_cms_menu_items')
      .set({ parent_id: item.parent_id, position: item.position, updated_at: now })
      .where('id', '=', item.id)
      .execute();
  }
  const gone = [...remove].filter((id) => before.has(id));
  for (let i = 0; i < gone.length; i += 500) {
    await trx
      .deleteFrom('_cms_menu_items')
      .where('id', 'in', gone.slice(i, i + 500))
      .execute();
  }
  if (gone.length) await trx.updateTable('_cms_menus').set({ updated_at: now }).where('id', '=', menuId).execute();
  return gone.length;
}

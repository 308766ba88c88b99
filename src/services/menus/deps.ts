import { type Actor, can } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { notFound } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { MenuItemsTable, MenusTable } from '../../db/tables-structure.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { type MenuItemView, type MenuWithItems, menuView } from './model.js';
import { resolveTargets } from './resolve.js';
import { orderTree, removeLifting } from './tree.js';

export interface MenuDeps {
  ctx: ServiceContext;
  schema: SchemaService;
}

export const now = (deps: MenuDeps) => isoNow(deps.ctx.clock);

export async function loadMenu(db: Kdb, name: string, locale: string): Promise<MenusTable> {
  const row = await db
    .selectFrom('_cms_menus')
    .selectAll()
    .where('name', '=', name)
    .where('locale', '=', locale)
    .executeTakeFirst();
  if (!row) throw notFound(`Menu "${name}" (${locale})`);
  return row;
}

/** Load the menu and, on PostgreSQL, lock it: item writers of one menu queue (SQLite serialises anyway). */
export async function lockMenu(deps: MenuDeps, trx: Kdb, name: string, locale: string): Promise<MenusTable> {
  const q = trx.selectFrom('_cms_menus').selectAll().where('name', '=', name).where('locale', '=', locale);
  const row = await (deps.ctx.dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
  if (!row) throw notFound(`Menu "${name}" (${locale})`);
  return row;
}

export function readItems(db: Kdb, menuId: string): Promise<MenuItemsTable[]> {
  return db.selectFrom('_cms_menu_items').selectAll().where('menu_id', '=', menuId).execute();
}

/**
 * The menu with its items in display order, targets resolved along `chain`
 * (with a schema snapshot taken before any transaction: see collectionIdsOf).
 * Readers without draft access do not see items whose target is not
 * published in the chain; the children of such an item move up in its place.
 */
export async function presentMenu(
  db: Kdb,
  actor: Actor,
  menu: MenusTable,
  chain: string[],
  snap: SchemaSnapshot,
): Promise<MenuWithItems> {
  const drafts = can(actor, 'content:read_drafts');
  const items = await readItems(db, menu.id);
  const targets = await resolveTargets(db, snap, items, chain, drafts);
  const shown = drafts
    ? items
    : removeLifting(items, new Set(items.filter((i) => i.kind !== 'url' && !targets.get(i.id)).map((i) => i.id)));
  const views: MenuItemView[] = orderTree(shown).map((i) => {
    const target = i.kind === 'url' ? null : (targets.get(i.id) ?? null);
    return {
      id: i.id,
      parentId: i.parent_id,
      position: Number(i.position),
      depth: i.depth,
      kind: i.kind as MenuItemView['kind'],
      label: i.label ?? target?.title ?? target?.slug ?? '',
      customLabel: i.label,
      url: i.url,
      openInNewTab: i.open_in_new_tab === 1,
      target,
      targetGroup: i.target_group,
    };
  });
  return { ...menuView(menu, items.length), items: views };
}

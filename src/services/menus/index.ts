import { isoNow } from '../../core/clock.js';
import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import { deletedCollections } from '../schema/deleted.js';
import type { SchemaService } from '../schema/index.js';
import { removeItemsOfCollections } from './cleanup.js';
import type { MenuDeps } from './deps.js';
import { itemOps } from './items.js';
import { onEntryDeleted } from './listener.js';
import { menuOps } from './menus.js';

export type { MenuItemInput } from './item-input.js';
export type { MenuItemCreateInput, MenuItemUpdateInput, ReorderEntry, SetItemInput } from './items.js';
export type { MenuCreateInput, MenuUpdateInput } from './menus.js';
export type { MenuItemView, MenuTarget, MenuView, MenuWithItems } from './model.js';
export { MAX_MENU_DEPTH, MAX_MENU_ITEMS } from './tree.js';

/** Menus per locale, linked by translation groups, with nested items pointing at entries, terms or URLs. */
export function createMenuService(ctx: ServiceContext, schema: SchemaService, content: ContentService) {
  const deps: MenuDeps = { ctx, schema };
  content.hooks.afterWrite('menus', onEntryDeleted);
  // A deleted collection's entries are gone without entry events: their items go with the collection.
  schema.hooks.afterChange('menus', async (trx, change) => {
    const gone = deletedCollections(change).map((c) => c.id);
    if (gone.length) await removeItemsOfCollections(trx, gone, isoNow(ctx.clock));
  });
  return { ...menuOps(deps), items: itemOps(deps) };
}

export type MenuService = ReturnType<typeof createMenuService>;

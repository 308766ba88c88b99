import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
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
  return { ...menuOps(deps), items: itemOps(deps) };
}

export type MenuService = ReturnType<typeof createMenuService>;

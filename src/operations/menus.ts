import { z } from '@hono/zod-openapi';
import {
  MenuCreateBody,
  MenuDeleted,
  MenuItemCreateBody,
  MenuItemDeleted,
  MenuItemParams,
  MenuItemSchema,
  MenuItemUpdateBody,
  MenuList,
  MenuListQuery,
  MenuLocaleQuery,
  MenuParams,
  MenuReorderBody,
  MenuTranslations,
  MenuUpdateBody,
  MenuWithItemsSchema,
  SetMenuItemsInput,
} from '../schemas/menus.js';
import { operation } from './operation.js';

/**
 * The menu operations (spec: menu rows; MCP menu_*). `locale` picks the menu's
 * locale (the default locale when omitted); the rules live in the menu service.
 */
const READS = 'content:read';
const MANAGES = 'menus:manage';

export const listMenus = operation({
  id: 'listMenus',
  query: MenuListQuery,
  output: MenuList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) => services.menus.list(actor, query),
});

/** Every locale variant of a menu, by menu ID or translation-group ID (not part of the REST contract: spec rule 7). */
export const listMenuTranslations = operation({
  id: 'listMenuTranslations',
  params: z.object({ id: z.string().min(1).max(64) }),
  output: MenuTranslations,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.menus.translations(actor, params.id),
});

export const createMenu = operation({
  id: 'createMenu',
  body: MenuCreateBody,
  output: MenuWithItemsSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { body }) => services.menus.create(actor, body),
});

export const getMenu = operation({
  id: 'getMenu',
  params: MenuParams,
  query: MenuLocaleQuery,
  output: MenuWithItemsSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) => services.menus.get(actor, params.name, query.locale),
});

export const updateMenu = operation({
  id: 'updateMenu',
  params: MenuParams,
  query: MenuLocaleQuery,
  body: MenuUpdateBody,
  output: MenuWithItemsSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query, body }) => services.menus.update(actor, params.name, query.locale, body),
});

export const deleteMenu = operation({
  id: 'deleteMenu',
  params: MenuParams,
  query: MenuLocaleQuery,
  output: MenuDeleted,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query }) => services.menus.remove(actor, params.name, query.locale),
});

export const createMenuItem = operation({
  id: 'createMenuItem',
  params: MenuParams,
  query: MenuLocaleQuery,
  body: MenuItemCreateBody,
  output: MenuItemSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query, body }) =>
    services.menus.items.createItem(actor, params.name, query.locale, body),
});

export const updateMenuItem = operation({
  id: 'updateMenuItem',
  params: MenuItemParams,
  query: MenuLocaleQuery,
  body: MenuItemUpdateBody,
  output: MenuItemSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query, body }) =>
    services.menus.items.updateItem(actor, params.name, query.locale, params.id, body),
});

export const deleteMenuItem = operation({
  id: 'deleteMenuItem',
  params: MenuItemParams,
  query: MenuLocaleQuery,
  output: MenuItemDeleted,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query }) =>
    services.menus.items.deleteItem(actor, params.name, query.locale, params.id),
});

export const reorderMenuItems = operation({
  id: 'reorderMenuItems',
  params: MenuParams,
  query: MenuLocaleQuery,
  body: MenuReorderBody,
  output: MenuWithItemsSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query, body }) =>
    services.menus.items.reorder(actor, params.name, query.locale, body.items),
});

/** Replace the whole item list atomically (MCP menu_set_items; REST reorders and edits items one by one). */
export const setMenuItems = operation({
  id: 'setMenuItems',
  params: MenuParams,
  query: MenuLocaleQuery,
  body: z.object({ items: SetMenuItemsInput }),
  output: MenuWithItemsSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query, body }) =>
    services.menus.items.setItems(actor, params.name, query.locale, body.items),
});

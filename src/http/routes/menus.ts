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
} from '../../schemas/menus.js';
import { type Api, op } from '../op.js';

/** Routes of the spec's menu rows. Rules live in the menu service; `locale` picks the menu's locale (default when omitted). */
export function menuRoutes(api: Api): void {
  const tags = ['Menus'];
  const one = '/menus/{name}';
  op(
    api,
    {
      method: 'get',
      path: '/menus',
      operationId: 'listMenus',
      summary: 'List the menus of a locale with their item counts',
      tags,
      query: MenuListQuery,
      response: MenuList,
    },
    async ({ actor, services, query }) => services.menus.list(actor, query),
  );
  // Spec rule 7: menu translation listings are not part of the REST contract (MCP: menu_translations).
  // Served for the admin app, left out of the document.
  op(
    api,
    {
      method: 'get',
      path: '/menu-translations/{id}',
      operationId: 'listMenuTranslations',
      summary: 'Every locale variant of a menu (by menu ID or translation-group ID)',
      tags,
      hidden: true,
      params: z.object({ id: z.string().min(1).max(64) }),
      response: MenuTranslations,
    },
    async ({ actor, services, params }) => services.menus.translations(actor, params.id),
  );
  op(
    api,
    {
      method: 'post',
      path: '/menus',
      operationId: 'createMenu',
      summary: 'Create a menu (with translationOf: a translation with a copy of the items)',
      tags,
      body: MenuCreateBody,
      response: MenuWithItemsSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.menus.create(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: one,
      operationId: 'getMenu',
      summary: "A menu with its items, targets resolved to the reader's locale",
      description:
        'The menu of the requested locale, else of its fallback, else of the default locale. Readers without draft access see only items whose target is published.',
      tags,
      params: MenuParams,
      query: MenuLocaleQuery,
      response: MenuWithItemsSchema,
    },
    async ({ actor, services, params, query }) => services.menus.get(actor, params.name, query.locale),
  );
  op(
    api,
    {
      method: 'put',
      path: one,
      operationId: 'updateMenu',
      summary: 'Rename or relabel a menu',
      tags,
      params: MenuParams,
      query: MenuLocaleQuery,
      body: MenuUpdateBody,
      response: MenuWithItemsSchema,
    },
    async ({ actor, services, params, query, body }) => services.menus.update(actor, params.name, query.locale, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: one,
      operationId: 'deleteMenu',
      summary: "Delete one locale's menu and its items",
      tags,
      params: MenuParams,
      query: MenuLocaleQuery,
      response: MenuDeleted,
    },
    async ({ actor, services, params, query }) => services.menus.remove(actor, params.name, query.locale),
  );
  op(
    api,
    {
      method: 'post',
      path: `${one}/items`,
      operationId: 'createMenuItem',
      summary: 'Add an item (an entry, a term or a URL), last among its siblings',
      tags,
      params: MenuParams,
      query: MenuLocaleQuery,
      body: MenuItemCreateBody,
      response: MenuItemSchema,
      status: 201,
    },
    async ({ actor, services, params, query, body }) =>
      services.menus.items.createItem(actor, params.name, query.locale, body),
  );
  op(
    api,
    {
      method: 'put',
      path: `${one}/items/{id}`,
      operationId: 'updateMenuItem',
      summary: 'Change an item (label, target, parent)',
      tags,
      params: MenuItemParams,
      query: MenuLocaleQuery,
      body: MenuItemUpdateBody,
      response: MenuItemSchema,
    },
    async ({ actor, services, params, query, body }) =>
      services.menus.items.updateItem(actor, params.name, query.locale, params.id, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: `${one}/items/{id}`,
      operationId: 'deleteMenuItem',
      summary: 'Delete an item; its children move up into its place',
      tags,
      params: MenuItemParams,
      query: MenuLocaleQuery,
      response: MenuItemDeleted,
    },
    async ({ actor, services, params, query }) =>
      services.menus.items.deleteItem(actor, params.name, query.locale, params.id),
  );
  op(
    api,
    {
      method: 'post',
      path: `${one}/reorder`,
      operationId: 'reorderMenuItems',
      summary: 'Reorder and re-nest every item at once',
      description:
        'Lists every item of the menu with its parent; array order is the order among siblings. A list missing items (the menu changed meanwhile) is a 409 and changes nothing.',
      tags,
      params: MenuParams,
      query: MenuLocaleQuery,
      body: MenuReorderBody,
      response: MenuWithItemsSchema,
    },
    async ({ actor, services, params, query, body }) =>
      services.menus.items.reorder(actor, params.name, query.locale, body.items),
  );
}

import {
  createMenu,
  createMenuItem,
  deleteMenu,
  deleteMenuItem,
  getMenu,
  listMenus,
  listMenuTranslations,
  reorderMenuItems,
  updateMenu,
  updateMenuItem,
} from '../../operations/menus.js';
import { type Api, route } from '../op.js';

/** Routes of the spec's menu rows (operations: operations/menus.ts). */
export function menuRoutes(api: Api): void {
  const tags = ['Menus'];
  const one = '/menus/{name}';
  route(api, {
    operation: listMenus,
    method: 'get',
    path: '/menus',
    summary: 'List the menus of a locale with their item counts',
    tags,
  });
  // Spec rule 7: menu translation listings are not part of the REST contract (MCP: menu_translations).
  // Served for the admin app, left out of the document.
  route(api, {
    operation: listMenuTranslations,
    method: 'get',
    path: '/menu-translations/{id}',
    summary: 'Every locale variant of a menu (by menu ID or translation-group ID)',
    tags,
    hidden: true,
  });
  route(api, {
    operation: createMenu,
    method: 'post',
    path: '/menus',
    summary: 'Create a menu (with translationOf: a translation with a copy of the items)',
    tags,
    status: 201,
  });
  route(api, {
    operation: getMenu,
    method: 'get',
    path: one,
    summary: "A menu with its items, targets resolved to the reader's locale",
    description:
      'The menu of the requested locale, else of its fallback, else of the default locale. Readers without draft access see only items whose target is published.',
    tags,
  });
  route(api, { operation: updateMenu, method: 'put', path: one, summary: 'Rename or relabel a menu', tags });
  route(api, {
    operation: deleteMenu,
    method: 'delete',
    path: one,
    summary: "Delete one locale's menu and its items",
    tags,
  });
  route(api, {
    operation: createMenuItem,
    method: 'post',
    path: `${one}/items`,
    summary: 'Add an item (an entry, a term or a URL), last among its siblings',
    tags,
    status: 201,
  });
  route(api, {
    operation: updateMenuItem,
    method: 'put',
    path: `${one}/items/{id}`,
    summary: 'Change an item (label, target, parent)',
    tags,
  });
  route(api, {
    operation: deleteMenuItem,
    method: 'delete',
    path: `${one}/items/{id}`,
    summary: 'Delete an item; its children move up into its place',
    tags,
  });
  route(api, {
    operation: reorderMenuItems,
    method: 'post',
    path: `${one}/reorder`,
    summary: 'Reorder and re-nest every item at once',
    description:
      'Lists every item of the menu with its parent; array order is the order among siblings. A list missing items (the menu changed meanwhile) is a 409 and changes nothing.',
    tags,
  });
}

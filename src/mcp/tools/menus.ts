import { z } from 'zod';
import {
  createMenu,
  deleteMenu,
  getMenu,
  listMenus,
  listMenuTranslations,
  setMenuItems,
  updateMenu,
} from '../../operations/menus.js';
import { MenuCreateBody, SetMenuItemsInput } from '../../schemas/menus.js';
import { label, MachineName } from '../../schemas/text.js';
import { DESTRUCTIVE, READ, type ToolDef, toolOf, WRITE } from '../registry.js';

const Locale = z.string().max(35).optional().describe('A configured locale (default locale when omitted)');
const Menu = z.object({ name: MachineName.describe('Menu name'), locale: Locale });
type MenuArgs = z.output<typeof Menu>;
const menuOf = (a: MenuArgs) => ({ params: { name: a.name }, query: { locale: a.locale } });

export const menuTools: ToolDef[] = [
  toolOf(listMenus, {
    name: 'menu_list',
    title: 'List Menus',
    description: 'List the menus of a locale with their item counts.',
    annotations: READ,
    input: z.object({
      locale: Locale,
      cursor: z.string().max(2000).optional(),
      limit: z.number().int().min(1).max(100).optional(),
    }),
    toArgs: (a) => ({ query: a }),
  }),
  toolOf(getMenu, {
    name: 'menu_get',
    title: 'Get Menu with Items',
    description:
      'A menu (of the locale, else its fallback, else the default locale) with its items depth first; entry and term targets resolve to the requested locale.',
    annotations: READ,
    input: Menu,
    toArgs: menuOf,
  }),
  toolOf(listMenuTranslations, {
    name: 'menu_translations',
    title: 'List Menu Translations',
    description: 'Every locale variant of a menu, by menu ID or translation-group ID.',
    annotations: READ,
    input: z.object({ id: z.string().min(1).max(64).describe('Menu ID or translation-group ID') }),
    toArgs: (a) => ({ params: a }),
  }),
  toolOf(createMenu, {
    name: 'menu_create',
    title: 'Create Menu',
    description:
      'Create a menu in a locale. With translationOf (a menu ID) it joins that menu’s translation group and starts with a copy of its items (their entry and term references kept).',
    annotations: WRITE,
    input: MenuCreateBody,
    toArgs: (a) => ({ body: a }),
  }),
  toolOf(updateMenu, {
    name: 'menu_update',
    title: 'Update Menu',
    description: 'Change a menu’s label or rename it (newName).',
    annotations: WRITE,
    input: Menu.extend({ label: label().optional(), newName: MachineName.optional() }),
    toArgs: (a) => ({ ...menuOf(a), body: { label: a.label, name: a.newName } }),
  }),
  toolOf(deleteMenu, {
    name: 'menu_delete',
    title: 'Delete Menu',
    description: 'Delete one locale’s menu and all its items (its translations stay).',
    annotations: DESTRUCTIVE,
    input: Menu,
    toArgs: menuOf,
  }),
  toolOf(setMenuItems, {
    name: 'menu_set_items',
    title: 'Set Menu Items',
    description:
      'Replace the whole item list atomically. Array order is menu order; a nested item’s parentIndex points to an earlier item of the same array (parents come before children). A forward or self index, or any invalid item, fails and changes nothing. Items: kind "content" (collection + entryId), "term" (termId) or "url" (url + label).',
    annotations: { ...DESTRUCTIVE, idempotentHint: true },
    input: Menu.extend({ items: SetMenuItemsInput }),
    toArgs: (a) => ({ ...menuOf(a), body: { items: a.items } }),
  }),
];

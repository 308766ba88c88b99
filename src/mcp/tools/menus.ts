import { z } from 'zod';
import {
  MenuCreateBody,
  MenuDeleted,
  MenuList,
  MenuTranslations,
  MenuWithItemsSchema,
  SetMenuItemsInput,
} from '../../schemas/menus.js';
import { label, MachineName } from '../../schemas/text.js';
import { DESTRUCTIVE, READ, type ToolDef, tool, WRITE } from '../registry.js';

const Locale = z.string().max(35).optional().describe('A configured locale (default locale when omitted)');
const Menu = z.object({ name: MachineName.describe('Menu name'), locale: Locale });

export const menuTools: ToolDef[] = [
  tool({
    name: 'menu_list',
    title: 'List Menus',
    description: 'List the menus of a locale with their item counts.',
    scope: 'content:read',
    annotations: READ,
    input: z.object({
      locale: Locale,
      cursor: z.string().max(2000).optional(),
      limit: z.number().int().min(1).max(100).optional(),
    }),
    output: MenuList,
    run: ({ services, actor }, a) => services.menus.list(actor, a),
  }),
  tool({
    name: 'menu_get',
    title: 'Get Menu with Items',
    description:
      'A menu (of the locale, else its fallback, else the default locale) with its items depth first; entry and term targets resolve to the requested locale.',
    scope: 'content:read',
    annotations: READ,
    input: Menu,
    output: MenuWithItemsSchema,
    run: ({ services, actor }, a) => services.menus.get(actor, a.name, a.locale),
  }),
  tool({
    name: 'menu_translations',
    title: 'List Menu Translations',
    description: 'Every locale variant of a menu, by menu ID or translation-group ID.',
    scope: 'content:read',
    annotations: READ,
    input: z.object({ id: z.string().min(1).max(64).describe('Menu ID or translation-group ID') }),
    output: MenuTranslations,
    run: ({ services, actor }, a) => services.menus.translations(actor, a.id),
  }),
  tool({
    name: 'menu_create',
    title: 'Create Menu',
    description:
      'Create a menu in a locale. With translationOf (a menu ID) it joins that menu’s translation group and starts with a copy of its items (their entry and term references kept).',
    scope: 'menus:manage',
    annotations: WRITE,
    input: MenuCreateBody,
    output: MenuWithItemsSchema,
    run: ({ services, actor }, a) => services.menus.create(actor, a),
  }),
  tool({
    name: 'menu_update',
    title: 'Update Menu',
    description: 'Change a menu’s label or rename it (newName).',
    scope: 'menus:manage',
    annotations: WRITE,
    input: Menu.extend({ label: label().optional(), newName: MachineName.optional() }),
    output: MenuWithItemsSchema,
    run: ({ services, actor }, a) =>
      services.menus.update(actor, a.name, a.locale, { label: a.label, name: a.newName }),
  }),
  tool({
    name: 'menu_delete',
    title: 'Delete Menu',
    description: 'Delete one locale’s menu and all its items (its translations stay).',
    scope: 'menus:manage',
    annotations: DESTRUCTIVE,
    input: Menu,
    output: MenuDeleted,
    run: ({ services, actor }, a) => services.menus.remove(actor, a.name, a.locale),
  }),
  tool({
    name: 'menu_set_items',
    title: 'Set Menu Items',
    description:
      'Replace the whole item list atomically. Array order is menu order; a nested item’s parentIndex points to an earlier item of the same array (parents come before children). A forward or self index, or any invalid item, fails and changes nothing. Items: kind "content" (collection + entryId), "term" (termId) or "url" (url + label).',
    scope: 'menus:manage',
    annotations: { ...DESTRUCTIVE, idempotentHint: true },
    input: Menu.extend({ items: SetMenuItemsInput }),
    output: MenuWithItemsSchema,
    run: ({ services, actor }, a) => services.menus.items.setItems(actor, a.name, a.locale, a.items),
  }),
];

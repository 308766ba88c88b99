import { z } from '@hono/zod-openapi';
import { MENU_ITEM_KINDS } from '../services/menus/model.js';
import { MENU_RULES } from '../services/menus/rules.js';
import { SlugParam } from './common.js';
import { CursorQuery, LocaleParam, MachineName } from './text.js';

/** Menus and their items. */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
const Id = z.string().min(1).max(64);
const Kind = z.enum(MENU_ITEM_KINDS);

export const MenuSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    label: z.string(),
    locale: z.string(),
    translationGroup: z.string(),
    itemCount: z.number().int(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .openapi('Menu');

export const MenuTargetSchema = z
  .object({
    collection: z.string().optional().openapi({ description: 'Content items: collection slug' }),
    taxonomy: z.string().optional().openapi({ description: 'Term items: taxonomy name' }),
    id: z.string(),
    slug: z.string().nullable(),
    title: z.string().nullable(),
    locale: z.string(),
    translationGroup: z.string(),
    status: z
      .string()
      .optional()
      .openapi({ description: 'Content items: the entry status (draft readers also see drafts)' }),
  })
  .openapi('MenuTarget');

export const MenuItemSchema = z
  .object({
    id: z.string(),
    parentId: z.string().nullable(),
    position: z.number().int(),
    depth: z.number().int().openapi({ description: '0 at the top level' }),
    kind: Kind,
    label: z.string().openapi({ description: "The item's own label, else the target's title" }),
    customLabel: z.string().nullable(),
    url: z.string().nullable(),
    openInNewTab: z.boolean(),
    target: MenuTargetSchema.nullable().openapi({
      description: "Content and term items: the target in the reader's locale; null when not available there",
    }),
    targetGroup: z.string().nullable(),
  })
  .openapi('MenuItem');

export const MenuWithItemsSchema = MenuSchema.extend({
  items: z.array(MenuItemSchema).openapi({ description: 'Depth first, siblings in order' }),
}).openapi('MenuWithItems');

export const MenuList = z.object({ items: z.array(MenuSchema), nextCursor: z.string().optional() }).openapi('MenuList');
export const MenuTranslations = z.object({ translationGroup: z.string(), items: z.array(MenuSchema) });

export const MenuCreateBody = z
  .object({
    name: MENU_RULES.name
      .optional()
      .openapi({ description: 'Required unless translationOf is given', example: 'main' }),
    label: MENU_RULES.label,
    locale: LocaleParam,
    translationOf: Id.optional().openapi({
      description: 'Menu ID in another locale: joins its translation group and copies its items',
    }),
  })
  .strict()
  .openapi('CreateMenuRequest');

export const MenuUpdateBody = z
  .object({ name: MENU_RULES.name.optional(), label: MENU_RULES.label.optional() })
  .strict()
  .openapi('UpdateMenuRequest');

/** One item's target and look (shared by create, update and menu_set_items). */
export const menuItemFields = {
  kind: Kind,
  label: MENU_RULES.itemLabel
    .nullable()
    .optional()
    .openapi({ description: "Shown instead of the target's title; required for URL items" }),
  url: MENU_RULES.itemUrl.optional().openapi({
    description: 'URL items: absolute http(s), mailto:, tel:, a site path or a #fragment',
  }),
  collection: SlugParam.optional().openapi({ description: 'Content items: collection slug' }),
  entryId: Id.optional().openapi({ description: 'Content items: ID of an entry in any locale' }),
  termId: Id.optional().openapi({ description: 'Term items: ID of a term in any locale' }),
  openInNewTab: z.boolean().optional(),
};

export const MenuItemCreateBody = z
  .object({
    ...menuItemFields,
    parentId: Id.nullable().optional().openapi({ description: 'An item of the same menu; the new item goes last' }),
  })
  .strict()
  .openapi('CreateMenuItemRequest');

export const MenuItemUpdateBody = z
  .object({
    ...menuItemFields,
    kind: Kind.optional(),
    parentId: Id.nullable().optional().openapi({ description: 'Moves the item (last among its new siblings)' }),
  })
  .strict()
  .openapi('UpdateMenuItemRequest');

export const MenuReorderBody = z
  .object({
    items: z
      .array(z.object({ id: Id, parentId: Id.nullable() }).strict())
      .max(500)
      .openapi({ description: 'Every item of the menu with its parent, in the new order' }),
  })
  .strict()
  .openapi('ReorderMenuItemsRequest');

export const SetMenuItemsInput = z
  .array(
    z
      .object({
        ...menuItemFields,
        parentIndex: z
          .number()
          .int()
          .nullable()
          .optional()
          .describe('Index of an earlier item of this array that is the parent'),
      })
      .strict(),
  )
  .max(500);

export const MenuParams = z.object({ name: MachineName });
export const MenuItemParams = z.object({ name: MachineName, id: Id });
export const MenuListQuery = z.object({ locale: LocaleParam, ...CursorQuery });
export const MenuLocaleQuery = z.object({ locale: LocaleParam });
export const MenuDeleted = z
  .object({ deleted: z.literal(true), id: z.string(), name: z.string() })
  .openapi('MenuDeleted');
export const MenuItemDeleted = z.object({ deleted: z.literal(true), id: z.string() }).openapi('MenuItemDeleted');

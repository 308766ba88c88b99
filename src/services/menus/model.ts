import type { MenusTable } from '../../db/tables-structure.js';

export const MENU_ITEM_KINDS = ['content', 'term', 'url'] as const;
export type MenuItemKind = (typeof MENU_ITEM_KINDS)[number];

export interface MenuView {
  id: string;
  name: string;
  label: string;
  locale: string;
  translationGroup: string;
  itemCount: number;
  createdAt: string;
  updatedAt: string;
}

/** What a content or term item points at, resolved to the reader's locale. */
export interface MenuTarget {
  /** Collection slug (content items). */
  collection?: string;
  /** Taxonomy name (term items). */
  taxonomy?: string;
  id: string;
  slug: string | null;
  title: string | null;
  locale: string;
  translationGroup: string;
  /** Content items: the entry's status (`trashed` for an entry in the trash; draft readers only see those). */
  status?: string;
}

export interface MenuItemView {
  id: string;
  parentId: string | null;
  position: number;
  /** 0 at the top level. */
  depth: number;
  kind: MenuItemKind;
  /** The label to show: the item's own, else the target's title. */
  label: string;
  /** The label stored on the item (null: follows the target's title). */
  customLabel: string | null;
  /** URL items: the link. */
  url: string | null;
  openInNewTab: boolean;
  /** Content and term items: the target in the reader's locale; null when it is not available there. */
  target: MenuTarget | null;
  /** Translation group the item references (content and term items). */
  targetGroup: string | null;
}

export interface MenuWithItems extends MenuView {
  items: MenuItemView[];
}

export function menuView(row: MenusTable, itemCount: number): MenuView {
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    locale: row.locale,
    translationGroup: row.translation_group,
    itemCount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

import { type Actor, requirePermission } from '../../auth/actor.js';
import { CmsError, issuesError, notFound, type ValidationIssue } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { MenuItemsTable, MenusTable } from '../../db/tables-structure.js';
import { inTransaction } from '../context.js';
import { localeChain, resolveLocale } from '../locales.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { rewriteWithout } from './cleanup.js';
import { lockMenu, type MenuDeps, now, presentMenu, readItems } from './deps.js';
import { checkItem, checkOneItem, type ItemColumns, itemLabel, type MenuItemInput } from './item-input.js';
import type { MenuItemView, MenuWithItems } from './model.js';
import { depths, MAX_MENU_DEPTH, MAX_MENU_ITEMS } from './tree.js';

export interface MenuItemCreateInput extends MenuItemInput {
  /** An item of the same menu; the new item goes last among its children. Omitted or null: the top level. */
  parentId?: string | null;
}

export type MenuItemUpdateInput = Partial<MenuItemCreateInput>;

/** menu_set_items: array order is menu order; `parentIndex` points to an earlier item of the same array. */
export interface SetItemInput extends MenuItemInput {
  parentIndex?: number | null;
}

export interface ReorderEntry {
  id: string;
  parentId: string | null;
}

const TARGET_KEYS = ['kind', 'url', 'collection', 'entryId', 'termId'] as const;

const bad = (path: (string | number)[], code: string, message: string) =>
  issuesError('Invalid menu item', [{ path, code, message }]);

/** Menu items: single-item writes, the batch reorder and the atomic replace of the whole list. */
export function itemOps(deps: MenuDeps) {
  const { ctx } = deps;

  /**
   * Run `fn` in a transaction holding the menu's lock, with its items and a
   * schema snapshot read before the transaction (on SQLite the schema cache's
   * own check would wait for the connection the transaction holds).
   */
  async function withMenu<T>(
    name: string,
    locale: string | undefined,
    fn: (trx: Kdb, menu: MenusTable, items: MenuItemsTable[], snap: SchemaSnapshot) => Promise<T>,
  ): Promise<T> {
    const loc = resolveLocale(ctx.config, locale);
    const snap = await deps.schema.snapshot();
    return inTransaction(ctx.db, async (trx) => {
      const locked = await lockMenu(deps, trx, name, loc);
      const menu = { ...locked, updated_at: now(deps) };
      await trx.updateTable('_cms_menus').set({ updated_at: menu.updated_at }).where('id', '=', menu.id).execute();
      return fn(trx, menu, await readItems(trx, menu.id), snap);
    });
  }

  async function present(actor: Actor, trx: Kdb, menu: MenusTable, snap: SchemaSnapshot): Promise<MenuWithItems> {
    return presentMenu(trx, actor, menu, localeChain(ctx.config, menu.locale), snap);
  }

  async function itemView(
    actor: Actor,
    trx: Kdb,
    menu: MenusTable,
    id: string,
    snap: SchemaSnapshot,
  ): Promise<MenuItemView> {
    const view = (await present(actor, trx, menu, snap)).items.find((i) => i.id === id);
    if (!view) throw notFound('Menu item');
    return view;
  }

  const nextPosition = (items: MenuItemsTable[], parent: string | null) =>
    items.filter((i) => i.parent_id === parent).reduce((max, i) => Math.max(max, Number(i.position) + 1), 0);

  /** Height of the subtree below `id` (0 for a leaf). */
  function height(items: MenuItemsTable[], id: string): number {
    const kids = items.filter((i) => i.parent_id === id);
    return kids.length ? 1 + Math.max(...kids.map((k) => height(items, k.id))) : 0;
  }

  /** A parent of this menu for `self` (null: a new item): not itself nor below itself, within the depth limit. */
  function checkParentItem(items: MenuItemsTable[], parentId: string, self: string | null): void {
    const byId = new Map(items.map((i) => [i.id, i]));
    if (!byId.has(parentId)) throw bad(['parentId'], 'not_found', 'not an item of this menu');
    let depth = 0;
    for (let at: string | null = parentId; at !== null; at = byId.get(at)?.parent_id ?? null) {
      if (at === self) throw bad(['parentId'], 'cycle', 'an item cannot sit below itself or one of its children');
      depth++;
      if (depth > MAX_MENU_DEPTH) break;
    }
    const total = depth + 1 + (self ? height(items, self) : 0);
    if (total > MAX_MENU_DEPTH) {
      throw bad(['parentId'], 'too_deep', `menus nest at most ${MAX_MENU_DEPTH} levels`);
    }
  }

  async function createItem(
    actor: Actor,
    name: string,
    locale: string | undefined,
    input: MenuItemCreateInput,
  ): Promise<MenuItemView> {
    requirePermission(actor, 'menus:manage');
    return withMenu(name, locale, async (trx, menu, items, snap) => {
      if (items.length >= MAX_MENU_ITEMS) {
        throw bad([], 'too_many', `a menu holds at most ${MAX_MENU_ITEMS} items`);
      }
      const parent = input.parentId ?? null;
      if (parent !== null) checkParentItem(items, parent, null);
      const columns = await checkOneItem(trx, snap, input);
      const at = now(deps);
      const id = newId();
      await trx
        .insertInto('_cms_menu_items')
        .values({
          id,
          menu_id: menu.id,
          parent_id: parent,
          position: nextPosition(items, parent),
          ...columns,
          created_at: at,
          updated_at: at,
        })
        .execute();
      return itemView(actor, trx, menu, id, snap);
    });
  }

  async function updateItem(
    actor: Actor,
    name: string,
    locale: string | undefined,
    id: string,
    input: MenuItemUpdateInput,
  ): Promise<MenuItemView> {
    requirePermission(actor, 'menus:manage');
    return withMenu(name, locale, async (trx, menu, items, snap) => {
      const item = items.find((i) => i.id === id);
      if (!item) throw notFound('Menu item');
      const patch: Partial<MenuItemsTable> = {};
      const label = input.label === undefined ? item.label : input.label;
      if (TARGET_KEYS.some((k) => input[k] !== undefined)) {
        const kind = input.kind ?? (item.kind as MenuItemInput['kind']);
        const columns: ItemColumns = await checkOneItem(trx, snap, {
          kind,
          label,
          url: input.url ?? (kind === 'url' && item.kind === 'url' ? (item.url ?? undefined) : undefined),
          collection:
            input.collection ??
            (kind === 'content' && item.collection_id ? snap.collectionsById.get(item.collection_id)?.slug : undefined),
          entryId: input.entryId,
          termId: input.termId,
          openInNewTab: input.openInNewTab ?? item.open_in_new_tab === 1,
        });
        Object.assign(patch, columns);
      } else {
        if (input.label !== undefined) {
          const stored = itemLabel(input.label);
          if (!stored && item.kind === 'url') throw bad(['label'], 'required', 'a URL item needs a label');
          patch.label = stored;
        }
        if (input.openInNewTab !== undefined) patch.open_in_new_tab = input.openInNewTab ? 1 : 0;
      }
      if (input.parentId !== undefined && input.parentId !== item.parent_id) {
        if (input.parentId !== null) checkParentItem(items, input.parentId, item.id);
        patch.parent_id = input.parentId;
        patch.position = nextPosition(items, input.parentId);
      }
      if (Object.keys(patch).length) {
        await trx
          .updateTable('_cms_menu_items')
          .set({ ...patch, updated_at: now(deps) })
          .where('id', '=', id)
          .execute();
      }
      return itemView(actor, trx, menu, id, snap);
    });
  }

  /** Deletes the item; its children move up into its place. */
  async function deleteItem(
    actor: Actor,
    name: string,
    locale: string | undefined,
    id: string,
  ): Promise<{ deleted: true; id: string }> {
    requirePermission(actor, 'menus:manage');
    return withMenu(name, locale, async (trx, menu, items) => {
      if (!items.some((i) => i.id === id)) throw notFound('Menu item');
      await rewriteWithout(trx, menu.id, new Set([id]), now(deps));
      return { deleted: true as const, id };
    });
  }

  /**
   * Batch reorder: every item of the menu with its parent, in the new order
   * (array order is the order among siblings). A list that misses items or
   * names unknown ones changes nothing.
   */
  async function reorder(
    actor: Actor,
    name: string,
    locale: string | undefined,
    entries: ReorderEntry[],
  ): Promise<MenuWithItems> {
    requirePermission(actor, 'menus:manage');
    return withMenu(name, locale, async (trx, menu, items, snap) => {
      const known = new Set(items.map((i) => i.id));
      const listed = new Set<string>();
      const issues: ValidationIssue[] = [];
      entries.forEach((e, i) => {
        if (!known.has(e.id))
          issues.push({ path: ['items', i, 'id'], code: 'not_found', message: 'not an item of this menu' });
        else if (listed.has(e.id))
          issues.push({ path: ['items', i, 'id'], code: 'duplicate', message: 'listed twice' });
        listed.add(e.id);
        if (e.parentId !== null && !known.has(e.parentId)) {
          issues.push({ path: ['items', i, 'parentId'], code: 'not_found', message: 'not an item of this menu' });
        }
        if (e.parentId === e.id)
          issues.push({ path: ['items', i, 'parentId'], code: 'cycle', message: 'an item cannot be its own parent' });
      });
      if (issues.length) throw issuesError('Invalid reorder', issues);
      const missing = items.filter((i) => !listed.has(i.id)).map((i) => i.id);
      if (missing.length) {
        throw new CmsError(
          'CONFLICT',
          'The menu has items the reorder does not list (it changed meanwhile): reload it',
          {
            missing,
          },
        );
      }
      const depth = depths(entries.map((e) => ({ id: e.id, parent_id: e.parentId })));
      entries.forEach((e, i) => {
        const d = depth.get(e.id) ?? 0;
        if (d === Number.POSITIVE_INFINITY)
          issues.push({ path: ['items', i, 'parentId'], code: 'cycle', message: 'parents form a loop' });
        else if (d >= MAX_MENU_DEPTH)
          issues.push({
            path: ['items', i, 'parentId'],
            code: 'too_deep',
            message: `menus nest at most ${MAX_MENU_DEPTH} levels`,
          });
      });
      if (issues.length) throw issuesError('Invalid reorder', issues);
      const before = new Map(items.map((i) => [i.id, i]));
      const counters = new Map<string | null, number>();
      const at = now(deps);
      for (const e of entries) {
        const position = counters.get(e.parentId) ?? 0;
        counters.set(e.parentId, position + 1);
        const old = before.get(e.id) as MenuItemsTable;
        if (old.parent_id === e.parentId && Number(old.position) === position) continue;
        await trx
          .updateTable('_cms_menu_items')
          .set({ parent_id: e.parentId, position, updated_at: at })
          .where('id', '=', e.id)
          .execute();
      }
      return present(actor, trx, menu, snap);
    });
  }

  /** menu_set_items: replace every item at once; one invalid item changes nothing. */
  async function setItems(
    actor: Actor,
    name: string,
    locale: string | undefined,
    list: SetItemInput[],
  ): Promise<MenuWithItems> {
    requirePermission(actor, 'menus:manage');
    if (list.length > MAX_MENU_ITEMS) throw bad(['items'], 'too_many', `a menu holds at most ${MAX_MENU_ITEMS} items`);
    return withMenu(name, locale, async (trx, menu, _items, snap) => {
      const issues: ValidationIssue[] = [];
      const ids = list.map(() => newId());
      const depth: number[] = [];
      list.forEach((item, i) => {
        const p = item.parentIndex;
        depth[i] = 0;
        if (p === undefined || p === null) return;
        if (!Number.isInteger(p) || p < 0 || p >= i) {
          issues.push({
            path: ['items', i, 'parentIndex'],
            code: 'invalid_parent_index',
            message: 'must point to an earlier item of the list (parents come before their children)',
          });
          return;
        }
        depth[i] = depth[p] + 1;
        if (depth[i] >= MAX_MENU_DEPTH) {
          issues.push({
            path: ['items', i, 'parentIndex'],
            code: 'too_deep',
            message: `menus nest at most ${MAX_MENU_DEPTH} levels`,
          });
        }
      });
      const columns: Array<ItemColumns | null> = [];
      for (let i = 0; i < list.length; i++) columns.push(await checkItem(trx, snap, list[i], ['items', i], issues));
      if (issues.length) throw issuesError('Invalid menu items', issues);
      await trx.deleteFrom('_cms_menu_items').where('menu_id', '=', menu.id).execute();
      const at = now(deps);
      const counters = new Map<string | null, number>();
      const rows = list.map((item, i) => {
        const parent = item.parentIndex === undefined || item.parentIndex === null ? null : ids[item.parentIndex];
        const position = counters.get(parent) ?? 0;
        counters.set(parent, position + 1);
        return {
          id: ids[i],
          menu_id: menu.id,
          parent_id: parent,
          position,
          ...(columns[i] as ItemColumns),
          created_at: at,
          updated_at: at,
        };
      });
      for (let i = 0; i < rows.length; i += 100) {
        await trx
          .insertInto('_cms_menu_items')
          .values(rows.slice(i, i + 100))
          .execute();
      }
      return present(actor, trx, menu, snap);
    });
  }

  return { createItem, updateItem, deleteItem, reorder, setItems };
}

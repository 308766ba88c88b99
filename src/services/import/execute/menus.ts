import { z } from 'zod';
import { isCmsError, schemaIssues, type ValidationIssue } from '../../../core/errors.js';
import { menuItemFields } from '../../../schemas/menus.js';
import type { SetItemInput } from '../../menus/index.js';
import { checkItem } from '../../menus/item-input.js';
import { MAX_MENU_DEPTH, MAX_MENU_ITEMS } from '../../menus/tree.js';
import { metaValue, type WxrItem } from '../wxr/model.js';
import type { ImportDeps, RunScope } from './deps.js';
import type { Landed } from './entries.js';
import type { Tally } from './tally.js';
import type { Terms } from './terms.js';

/** What a classic menu item (`nav_menu_item`) says, kept until every entry it may point at is written. */
interface NavItem {
  item: Pick<WxrItem, 'postId' | 'postType' | 'title'>;
  menu: string;
  order: number;
  parent: string;
  type: string;
  object: string;
  objectId: string;
  url: string;
  newTab: boolean;
}

const itemSchema = z.object(menuItemFields).strict();

async function hasItems(deps: ImportDeps, menuId: string): Promise<boolean> {
  const row = await deps.ctx.db
    .selectFrom('_cms_menu_items')
    .select('id')
    .where('menu_id', '=', menuId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Why the menu write path would refuse this item (its schema, then the service's checkItem), or null. */
async function refusal(deps: ImportDeps, input: SetItemInput): Promise<string | null> {
  const { parentIndex: _parentIndex, ...fields } = input;
  const parsed = itemSchema.safeParse(fields);
  const issues: ValidationIssue[] = parsed.success ? [] : schemaIssues(parsed.error.issues);
  if (!issues.length) await checkItem(deps.ctx.db, await deps.schema.snapshot(), fields, [], issues);
  return issues.length ? issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : null;
}

/**
 * Classic menus: the items are collected while the file streams (they can
 * point at posts that come later), then each menu is created with all its
 * items at once. Targets are found through the transient source-ID map;
 * an item whose target was not imported is reported, and nesting deeper than
 * the menu limit is attached to the deepest allowed ancestor.
 */
export class Menus {
  private readonly labels = new Map<string, string>();
  private readonly items: NavItem[] = [];

  declare(slug: string, label: string): void {
    this.labels.set(slug, label || slug);
  }

  add(item: WxrItem): NavItem | null {
    const menu = item.terms.find((t) => t.domain === 'nav_menu');
    if (!menu) return null;
    if (!this.labels.has(menu.slug)) this.labels.set(menu.slug, menu.name || menu.slug);
    const nav: NavItem = {
      item: { postId: item.postId, postType: item.postType, title: item.title },
      menu: menu.slug,
      order: Number(item.menuOrder) || 0,
      parent: metaValue(item, '_menu_item_menu_item_parent') ?? '0',
      type: metaValue(item, '_menu_item_type') ?? 'custom',
      object: metaValue(item, '_menu_item_object') ?? '',
      objectId: metaValue(item, '_menu_item_object_id') ?? '',
      url: metaValue(item, '_menu_item_url') ?? '',
      newTab: metaValue(item, '_menu_item_target') === '_blank',
    };
    this.items.push(nav);
    return nav;
  }

  async write(
    deps: ImportDeps,
    scope: RunScope,
    tally: Tally,
    landed: ReadonlyMap<string, Landed>,
    terms: Terms,
    skipExisting: boolean,
  ): Promise<void> {
    // Every declared menu is created, an empty one too (it is part of the site's structure).
    const byMenu = new Map<string, NavItem[]>([...this.labels.keys()].map((k) => [k, []]));
    for (const n of this.items) {
      const list = byMenu.get(n.menu) ?? [];
      list.push(n);
      byMenu.set(n.menu, list);
    }
    const stats = tally.result.menus;
    for (const [name, items] of byMenu) {
      const existing = await deps.ctx.db
        .selectFrom('_cms_menus')
        .select('id')
        .where('name', '=', name)
        .where('locale', '=', scope.locale)
        .executeTakeFirst();
      if (existing) {
        if (skipExisting && items.length && !(await hasItems(deps, existing.id))) {
          // A run cut short (a crash) between creating the menu and writing its items left it empty:
          // this run writes them. A menu that has items is never merged into.
          stats.skipped++;
          await this.writeMenu(deps, scope, tally, landed, terms, name, items, false);
          continue;
        }
        if (skipExisting) {
          stats.skipped++;
          for (const n of items) tally.skipped(n.item.postType, null, 'exists');
          stats.items.skipped += items.length;
        } else {
          stats.failed++;
          for (const n of items) {
            tally.failed(n.item, null, 'ALREADY_EXISTS', `A menu named "${name}" already exists`);
          }
          stats.items.failed += items.length;
        }
        continue;
      }
      await this.writeMenu(deps, scope, tally, landed, terms, name, items);
    }
  }

  private async writeMenu(
    deps: ImportDeps,
    scope: RunScope,
    tally: Tally,
    landed: ReadonlyMap<string, Landed>,
    terms: Terms,
    name: string,
    items: NavItem[],
    create = true,
  ): Promise<void> {
    const stats = tally.result.menus;
    const sorted = [...items].sort((a, b) => a.order - b.order);
    const index = new Map<string, number>();
    const depth: number[] = [];
    const list: SetItemInput[] = [];
    const sources: NavItem[] = [];
    const placed = new Set<string>();
    // Parents first: repeat passes until no item can be placed (a missing parent puts the item at the top).
    let remaining = sorted;
    while (remaining.length) {
      const next: NavItem[] = [];
      for (const n of remaining) {
        const parentKnown = n.parent && n.parent !== '0' && sorted.some((x) => x.item.postId === n.parent);
        if (parentKnown && !placed.has(n.parent)) {
          next.push(n);
          continue;
        }
        placed.add(n.item.postId);
        const input = await this.target(deps, scope, n, landed, terms);
        if (!input) {
          tally.failed(
            n.item,
            null,
            'TARGET_NOT_IMPORTED',
            `The menu item's target (${n.object} ${n.objectId}) was not imported`,
          );
          stats.items.failed++;
          continue;
        }
        // The menu service's rules for one item (a URL item's link is an allowed one …): a refused item fails
        // alone, instead of the menu's whole list being refused by setItems.
        const problem = await refusal(deps, input);
        if (problem) {
          tally.failed(n.item, null, 'INVALID_MENU_ITEM', `Menu "${name}": ${problem}`);
          stats.items.failed++;
          continue;
        }
        let parentIndex: number | null = parentKnown ? (index.get(n.parent) ?? null) : null;
        while (parentIndex !== null && depth[parentIndex] + 1 >= MAX_MENU_DEPTH) {
          parentIndex = list[parentIndex].parentIndex ?? null;
        }
        index.set(n.item.postId, list.length);
        depth.push(parentIndex === null ? 0 : depth[parentIndex] + 1);
        list.push({ ...input, parentIndex });
        sources.push(n);
      }
      if (next.length === remaining.length) {
        // A parent cycle: the rest go to the top level.
        for (const n of next) n.parent = '0';
      }
      remaining = next;
    }
    if (list.length > MAX_MENU_ITEMS) {
      for (const n of sources.splice(MAX_MENU_ITEMS)) {
        tally.failed(n.item, null, 'TOO_MANY_ITEMS', `A menu holds at most ${MAX_MENU_ITEMS} items`);
        stats.items.failed++;
      }
      list.length = MAX_MENU_ITEMS;
    }
    if (create) {
      try {
        await deps.menus.create(scope.actor, {
          name,
          label: (this.labels.get(name) ?? name).slice(0, 200),
          locale: scope.locale,
        });
      } catch (err) {
        if (!isCmsError(err)) throw err;
        stats.failed++;
        for (const n of sources) tally.failed(n.item, null, err.code, `Menu "${name}": ${err.message}`);
        stats.items.failed += sources.length;
        return;
      }
      stats.created++;
    }
    if (!list.length) return;
    try {
      await deps.menus.items.setItems(scope.actor, name, scope.locale, list);
      for (const n of sources) tally.imported(n.item.postType, null);
      stats.items.imported += sources.length;
    } catch (err) {
      if (!isCmsError(err)) throw err;
      for (const n of sources) tally.failed(n.item, null, err.code, `Menu "${name}": ${err.message}`);
      stats.items.failed += sources.length;
    }
  }

  private async target(
    deps: ImportDeps,
    scope: RunScope,
    n: NavItem,
    landed: ReadonlyMap<string, Landed>,
    terms: Terms,
  ): Promise<SetItemInput | null> {
    const label = n.item.title.trim() || null;
    if (n.type === 'post_type') {
      const hit = landed.get(n.objectId);
      if (!hit) return null;
      return { kind: 'content', collection: hit.collection.slug, entryId: hit.id, label, openInNewTab: n.newTab };
    }
    if (n.type === 'taxonomy') {
      const ref = terms.byId(n.object, n.objectId);
      if (!ref) return null;
      const term = await deps.ctx.db
        .selectFrom('_cms_terms')
        .select('id')
        .where('translation_group', '=', ref.group)
        .where('locale', '=', scope.locale)
        .executeTakeFirst();
      return term ? { kind: 'term', termId: term.id, label, openInNewTab: n.newTab } : null;
    }
    if (!n.url) return null;
    return { kind: 'url', url: n.url, label: label ?? n.url, openInNewTab: n.newTab };
  }
}

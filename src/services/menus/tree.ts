/**
 * Menu item trees in memory. A menu holds at most MAX_MENU_ITEMS items, so
 * structural changes (remove with children lifted, batch reorder) load the
 * whole menu, compute the new tree here, and write back only what changed.
 */
export const MAX_MENU_ITEMS = 500;
export const MAX_MENU_DEPTH = 8;

export interface TreeNode {
  id: string;
  parent_id: string | null;
  position: number;
}

function childrenOf<T extends TreeNode>(items: T[]): Map<string | null, T[]> {
  const ids = new Set(items.map((i) => i.id));
  const map = new Map<string | null, T[]>();
  for (const item of items) {
    // An item whose parent is gone is shown at the top level rather than lost.
    const parent = item.parent_id !== null && ids.has(item.parent_id) ? item.parent_id : null;
    const list = map.get(parent) ?? [];
    list.push(item);
    map.set(parent, list);
  }
  for (const list of map.values()) list.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  return map;
}

/** Items in display order (depth first, siblings by position), each with its depth (0 at the top). */
export function orderTree<T extends TreeNode>(items: T[]): Array<T & { depth: number }> {
  const kids = childrenOf(items);
  const out: Array<T & { depth: number }> = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, depth: number) => {
    for (const item of kids.get(parent) ?? []) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push({ ...item, depth });
      walk(item.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/**
 * The tree without `remove`d items: the children of a removed item take its
 * place among its siblings. Positions are renumbered 0..n-1 per parent.
 */
export function removeLifting<T extends TreeNode>(items: T[], remove: Set<string>): T[] {
  const kids = childrenOf(items);
  const out: T[] = [];
  const counters = new Map<string | null, number>();
  const next = (parent: string | null) => {
    const n = counters.get(parent) ?? 0;
    counters.set(parent, n + 1);
    return n;
  };
  const build = (keptParent: string | null, parent: string | null) => {
    for (const item of kids.get(parent) ?? []) {
      if (remove.has(item.id)) {
        build(keptParent, item.id);
        continue;
      }
      out.push({ ...item, parent_id: keptParent, position: next(keptParent) });
      build(item.id, item.id);
    }
  };
  build(null, null);
  return out;
}

/** Depth of each item (0 at the top); Infinity when its parent chain loops. */
export function depths(items: Array<{ id: string; parent_id: string | null }>): Map<string, number> {
  const parent = new Map(items.map((i) => [i.id, i.parent_id]));
  const out = new Map<string, number>();
  for (const item of items) {
    let depth = 0;
    let at = item.parent_id;
    const seen = new Set([item.id]);
    while (at !== null && parent.has(at)) {
      if (seen.has(at)) {
        depth = Number.POSITIVE_INFINITY;
        break;
      }
      seen.add(at);
      depth++;
      at = parent.get(at) ?? null;
    }
    out.set(item.id, depth);
  }
  return out;
}

/**
 * Menu structure edits on the client: the menu arrives depth first with each
 * item's parent; every edit here returns the whole new order as the batch
 * reorder operation takes it (every item with its parent, siblings in order).
 */
export interface FlatItem {
  id: string;
  parentId: string | null;
  depth: number;
}

export interface Placement {
  id: string;
  parentId: string | null;
}

/** Menus nest at most 8 levels (depth 0 to 7), as the service allows. */
export const MAX_DEPTH = 7;

interface Node {
  id: string;
  children: Node[];
}

function build(flat: Placement[]): Node[] {
  const nodes = new Map(flat.map((f) => [f.id, { id: f.id, children: [] as Node[] }]));
  const roots: Node[] = [];
  for (const f of flat) {
    const node = nodes.get(f.id) as Node;
    const parent = f.parentId ? nodes.get(f.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

function flatten(nodes: Node[], parentId: string | null = null, depth = 0, out: FlatItem[] = []): FlatItem[] {
  for (const n of nodes) {
    out.push({ id: n.id, parentId, depth });
    flatten(n.children, n.id, depth + 1, out);
  }
  return out;
}

function locate(
  nodes: Node[],
  id: string,
  parent: Node | null = null,
): { list: Node[]; index: number; parent: Node | null } | null {
  const index = nodes.findIndex((n) => n.id === id);
  if (index >= 0) return { list: nodes, index, parent };
  for (const n of nodes) {
    const hit = locate(n.children, id, n);
    if (hit) return hit;
  }
  return null;
}

function height(node: Node): number {
  return node.children.length ? 1 + Math.max(...node.children.map(height)) : 0;
}

export type TreeMove = 'up' | 'down' | 'indent' | 'outdent';

/** The order after one keyboard-style move, or null when the move is not possible there. */
export function applyMove(flat: FlatItem[], id: string, move: TreeMove): FlatItem[] | null {
  const roots = build(flat);
  const at = locate(roots, id);
  if (!at) return null;
  const { list, index, parent } = at;
  const node = list[index];
  const depth = flat.find((f) => f.id === id)?.depth ?? 0;
  if (move === 'up' || move === 'down') {
    const other = index + (move === 'up' ? -1 : 1);
    if (other < 0 || other >= list.length) return null;
    [list[index], list[other]] = [list[other], list[index]];
  } else if (move === 'indent') {
    if (index === 0 || depth + 1 + height(node) > MAX_DEPTH) return null;
    list.splice(index, 1);
    list[index - 1].children.push(node);
  } else {
    if (!parent) return null;
    const outer = locate(roots, parent.id);
    if (!outer) return null;
    list.splice(index, 1);
    outer.list.splice(outer.index + 1, 0, node);
  }
  return flatten(roots);
}

/** Every item of `flat` with the subtree of `id` (the item and what is below it). */
export function subtreeOf(flat: FlatItem[], id: string): Set<string> {
  const start = flat.findIndex((f) => f.id === id);
  const out = new Set<string>();
  if (start < 0) return out;
  out.add(id);
  for (let i = start + 1; i < flat.length && flat[i].depth > flat[start].depth; i++) out.add(flat[i].id);
  return out;
}

/**
 * Where a dragged item lands: in the list without its own subtree, at the
 * position of the item it is over, at the depth its horizontal offset asks
 * for, kept between what the neighbours allow (no deeper than one below the
 * item above it, no shallower than the item below it).
 */
export function projectDrop(
  flat: FlatItem[],
  activeId: string,
  overId: string,
  depthDelta: number,
): { order: FlatItem[]; depth: number } | null {
  const moving = subtreeOf(flat, activeId);
  const active = flat.find((f) => f.id === activeId);
  if (!active) return null;
  const rest = flat.filter((f) => !moving.has(f.id) || f.id === activeId);
  const from = rest.findIndex((f) => f.id === activeId);
  const to = rest.findIndex((f) => f.id === overId);
  if (from < 0 || to < 0) return null;
  const moved = [...rest];
  moved.splice(to, 0, ...moved.splice(from, 1));
  const above = moved[to - 1];
  const below = moved[to + 1];
  const subtreeHeight = Math.max(0, ...flat.filter((f) => moving.has(f.id)).map((f) => f.depth - active.depth));
  const max = Math.min(above ? above.depth + 1 : 0, MAX_DEPTH - subtreeHeight);
  const min = below && below.depth <= max ? below.depth : 0;
  const depth = Math.max(min, Math.min(max, active.depth + depthDelta));
  const shift = depth - active.depth;
  const subtree = flat.filter((f) => moving.has(f.id)).map((f) => ({ ...f, depth: f.depth + shift }));
  const order = [...moved.slice(0, to), ...subtree, ...moved.slice(to + 1)];
  return { order: withParents(order), depth };
}

/** Parents recomputed from depths (each item's parent is the nearest shallower item above it). */
export function withParents(order: FlatItem[]): FlatItem[] {
  const stack: string[] = [];
  return order.map((f) => {
    stack.length = f.depth;
    const parentId = f.depth > 0 ? (stack[f.depth - 1] ?? null) : null;
    stack[f.depth] = f.id;
    return { ...f, parentId };
  });
}

export function placements(order: FlatItem[]): Placement[] {
  return order.map((f) => ({ id: f.id, parentId: f.parentId }));
}

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * The shape of src/ (DESIGN.md, "Imports go down only"): rooms (a top-level folder, or one
 * service's folder under services/) must not import each other in a circle, and no file may import
 * a layer above its own (core < db, storage < services, auth < schemas < operations < the doors). What is still
 * crooked is listed below, each to be removed, never added to: a new cycle or upward import fails
 * here, and so does an entry that no longer exists (the list stays the truth).
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

const KNOWN_CYCLES = [
  'auth <-> core',
  'schemas <-> services/auth <-> services/comments <-> services/import <-> services/oauth <-> services/tokens <-> services/transfer',
];

const KNOWN_UPWARD = [
  'core/config-auth.ts -> auth/roles.ts',
  'services/import/execute/menus.ts -> schemas/menus.ts',
  'services/import/execute/terms.ts -> schemas/taxonomies.ts',
];

const LAYER: Record<string, number> = {
  core: 0,
  db: 1,
  storage: 1,
  services: 2,
  auth: 2,
  schemas: 3,
  operations: 4,
  http: 5,
  mcp: 5,
  cli: 5,
  client: 5,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith('.gen.ts') ? [path] : [];
  });
}

/** Each file's relative imports inside src/ (type-only ones too: they tie the rooms as much). */
function importGraph(): Map<string, Set<string>> {
  const specifier = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/g;
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const targets = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(specifier)) {
      const target = resolve(dirname(file), m[1]).replace(/\.js$/, '.ts');
      if (target.startsWith(SRC)) targets.add(relative(SRC, target));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** A top-level folder, or under services/ one domain's folder (or one shared file, such as context.ts). */
const roomOf = (path: string) => {
  const parts = path.split('/');
  if (parts[0] === 'services') return `services/${parts[1]}`;
  return parts.length > 1 ? parts[0] : path;
};

/** Strongly connected sets of rooms (Tarjan), each as its sorted members joined. */
function roomCycles(graph: Map<string, Set<string>>): string[] {
  const edges = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = roomOf(from);
      const b = roomOf(to);
      if (a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const members: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      members.push(w);
    } while (w !== v);
    if (members.length > 1) cycles.push(members.sort().join(' <-> '));
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles.sort();
}

function upwardImports(graph: Map<string, Set<string>>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = LAYER[from.split('/')[0]];
      const b = LAYER[to.split('/')[0]];
      if (a !== undefined && b !== undefined && b > a) out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}

it('has no import cycle between rooms beyond the known ones', () => {
  expect(roomCycles(importGraph())).toEqual([...KNOWN_CYCLES].sort());
});

it('has no upward import beyond the known ones', () => {
  expect(upwardImports(importGraph())).toEqual([...KNOWN_UPWARD].sort());
});

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CollectionInfo } from '../schema/model.js';
import { referenced } from '../search/consistency.js';
import type { DocumentKey } from '../search/engine.js';
import { indexBaseOf } from '../search/engine.js';
import type { SearchSettings } from '../search/settings.js';
import type { CheckDeps } from './index.js';
import { CHECK_BATCH, type Check, type CheckEnv, type FindingSink } from './model.js';
import { pendingFindings } from './pending.js';

/** How long a repair steps one collection's rebuild before leaving the rest to the background worker. */
export const SEARCH_REPAIR_BUDGET_MS = 5 * 60_000;

type Pending = ReturnType<typeof pendingFindings>;

const visibility = (d: { live: boolean; current: boolean }) =>
  d.live && d.current ? 'live' : d.live ? 'live (a draft is pending)' : 'draft';
const slot = (d: { live: boolean; current: boolean }) => `${d.live ? 1 : 0}${d.current ? 1 : 0}`;

const group = (keys: DocumentKey[]) => {
  const out = new Map<string, DocumentKey[]>();
  for (const k of keys) {
    const list = out.get(k.entryId);
    if (list) list.push(k);
    else out.set(k.entryId, [k]);
  }
  return out;
};

/**
 * Compare one entry's documents with what its row implies. `exists`: the row is there (trashed
 * or not); `expected` is empty for a trashed one.
 */
function compareEntry(
  c: CollectionInfo,
  id: string,
  exists: boolean,
  trashed: boolean,
  expected: DocumentKey[],
  found: DocumentKey[],
  out: Pending,
): void {
  const left = [...found];
  for (const want of expected) {
    const at = left.findIndex((d) => slot(d) === slot(want));
    if (at < 0) {
      out.add({
        code: 'SEARCH_DOCUMENT_MISSING',
        message: `the ${visibility(want)} document (version ${want.version}, ${want.locale}) is not in the index`,
        collection: c.slug,
        subject: id,
        repairable: true,
      });
      continue;
    }
    const [have] = left.splice(at, 1);
    if (have.version !== want.version || have.locale !== want.locale || have.status !== want.status) {
      out.add({
        code: 'SEARCH_DOCUMENT_OUTDATED',
        message: `the ${visibility(want)} document was made from version ${have.version} (${have.locale}, ${have.status}); the entry is at version ${want.version} (${want.locale}, ${want.status})`,
        collection: c.slug,
        subject: id,
        repairable: true,
      });
    }
  }
  for (const extra of left) {
    const why = !exists
      ? 'the entry no longer exists'
      : trashed
        ? 'the entry is in the trash'
        : `the entry has no ${visibility(extra)} document${expected.some((e) => slot(e) === slot(extra)) ? ' besides the one indexed' : ''}`;
    out.add({
      code: 'SEARCH_DOCUMENT_STALE',
      message: `a ${visibility(extra)} document (version ${extra.version}) is indexed but ${why}`,
      collection: c.slug,
      subject: id,
      repairable: true,
    });
  }
}

/**
 * Walk a collection's entries and the index's documents side by side in ID order, CHECK_BATCH
 * entries of each a step: a step covers IDs up to the lower of the two batches' last IDs, so
 * documents of entries that no longer exist are found in bounded steps too.
 */
async function scan(
  { ctx, deps }: CheckEnv<CheckDeps>,
  c: CollectionInfo,
  index: NonNullable<SearchSettings['index']>,
  out: Pending,
  batch: number,
): Promise<void> {
  const ops = deps.search.consistency;
  let cursor: string | null = null;
  for (;;) {
    // SQLite answers synchronously: give requests a turn between batches of a long check.
    await nextTurn();
    const chunk = await ops.chunk(ctx.db, c, cursor, batch);
    const held = await ops.engine.indexedEntries(ctx.db, index.table, cursor, batch);
    const ends = [chunk.ids.length === batch ? chunk.last : null, held.length === batch ? held.at(-1) : null]
      .filter((x): x is string => typeof x === 'string')
      .sort();
    const bound = ends[0] ?? null;
    const within = (id: string) => bound === null || id <= bound;
    const rows = new Set(chunk.ids.filter(within));
    const live = new Map(chunk.entries.filter((e) => within(e.row.id)).map((e) => [e.row.id, e]));
    const found = group(await ops.engine.documentKeys(ctx.db, index.table, held.filter(within)));
    for (const id of new Set([...rows, ...found.keys()])) {
      const entry = live.get(id);
      const expected = entry ? ops.expectedKeys(c, entry, index.tiers) : [];
      compareEntry(c, id, rows.has(id), rows.has(id) && !entry, expected, found.get(id) ?? [], out);
    }
    if (bound === null) return;
    cursor = bound;
  }
}

/** A searchable collection: its index holds exactly the documents its entries imply. */
async function checkCollection(
  env: CheckEnv<CheckDeps>,
  c: CollectionInfo,
  s: SearchSettings | null,
  building: string[],
  sink: FindingSink,
  batch: number,
  tables: ReadonlySet<string>,
): Promise<void> {
  const { ctx, deps, repair } = env;
  const ops = deps.search.consistency;
  let settings = s;
  if (settings?.build && repair) {
    // A repair finishes a build in progress (what the background worker would do), then checks.
    await deps.search.advance(c.id, SEARCH_REPAIR_BUDGET_MS);
    settings = await ops.settings(ctx.db, c.id);
  }
  if (settings?.build) {
    // A note (sink.skip), not a finding: a build in progress is normal work, not damage. Searches
    // read the previous index meanwhile and the build catches up with the writes it missed before
    // it swaps, so comparing now would report what the build is about to fix; and a finding would
    // make `cms check` exit 1 on a healthy site whose worker is simply busy.
    building.push(c.slug);
    return;
  }
  const out = pendingFindings(sink);
  if (!settings?.index) {
    out.add({
      code: 'SEARCH_INDEX_MISSING',
      message: 'search is enabled but the collection has no index',
      collection: c.slug,
      subject: c.slug,
      repairable: true,
    });
  } else if (!tables.has(settings.index.table)) {
    out.add({
      code: 'SEARCH_INDEX_MISSING',
      message: `the settings name index table ${settings.index.table}, which does not exist`,
      collection: c.slug,
      subject: c.slug,
      repairable: true,
    });
  } else {
    await scan(env, c, settings.index, out, batch);
  }
  // One repair for every difference: a rebuild from the content, by the rule entry writes use.
  const repaired = out.size > 0 && repair ? await ops.rebuild(c, SEARCH_REPAIR_BUDGET_MS) : false;
  out.flush(repaired);
}

/**
 * The search index of every collection with search enabled holds exactly the documents the
 * content implies (every non-trashed entry: its live version when published, what draft
 * readers see when that differs or it is not live, in its locale), each made from the entry's
 * current version. Collections without search keep no index tables, and no index table is
 * left that no collection's settings name. Repair rebuilds a collection's index through the
 * build machinery (findings are marked repaired once the rebuilt index is the one searches
 * read), lets the schema drop the tables of a collection whose search is off, and drops
 * leftover tables.
 */
export const searchCheck = searchCheckOf(CHECK_BATCH);

/** The check reading `batch` entries a step (tests walk the step boundaries with a small one). */
export function searchCheckOf(batch: number): Check<CheckDeps> {
  return {
    id: 'search',
    title: 'Search index documents against the entries of every searchable collection',
    async run(env, sink) {
      const { ctx, snap, repair, deps } = env;
      const ops = deps.search.consistency;
      const settings = await ops.allSettings(ctx.db);
      // Index tables that exist: settings naming a table dropped by hand mean there is no index.
      const tables = new Set(await ops.engine.indexTables(ctx.db));
      const building: string[] = [];
      for (const c of [...snap.collections.values()].sort((a, b) => a.slug.localeCompare(b.slug))) {
        const s = settings.get(c.id) ?? null;
        if (c.supports.includes('search')) {
          await checkCollection(env, c, s, building, sink, batch, tables);
        } else if (s && (s.index || s.build)) {
          // Reconcile reads the schema again in its transaction: search enabled meanwhile keeps the index.
          if (repair) await ops.reconcile(c.id);
          sink.add({
            code: 'SEARCH_INDEX_LEFT',
            message: `search is disabled but index table ${(s.index ?? s.build)!.table} remains`,
            collection: c.slug,
            subject: c.slug,
            repairable: true,
            repaired: repair,
          });
        }
      }
      for (const [id, s] of settings) {
        if (snap.collectionsById.has(id) || !(s.index || s.build)) continue;
        if (repair) await ops.reconcile(id);
        sink.add({
          code: 'SEARCH_INDEX_LEFT',
          message: `collection ${id} no longer exists but its index table ${(s.index ?? s.build)!.table} remains`,
          collection: null,
          subject: id,
          repairable: true,
          repaired: repair,
        });
      }
      // Tables no settings row names (a lost settings row, an interrupted drop): read after the
      // repairs above, which replace tables.
      const named = referenced(await ops.allSettings(ctx.db));
      const byLowerId = new Map([...snap.collectionsById.values()].map((c) => [c.id.toLowerCase(), c]));
      for (const table of await ops.engine.indexTables(ctx.db)) {
        if (named.has(table) || indexBaseOf(table) !== table) continue;
        const owner = byLowerId.get(table.slice('_cms_fts_'.length, '_cms_fts_'.length + 26)) ?? null;
        const dropped = repair ? await ops.dropLeftover(table, owner?.id ?? null) : false;
        sink.add({
          code: 'SEARCH_INDEX_TABLE_LEFTOVER',
          message: `index table ${table} is named by no collection's search settings`,
          collection: owner?.slug ?? null,
          subject: table,
          repairable: true,
          repaired: dropped,
        });
      }
      if (building.length) {
        sink.skip(
          `an index rebuild is in progress for ${building.join(', ')}; not compared until it finishes (run again, or repair to finish it now)`,
        );
      }
    },
  };
}

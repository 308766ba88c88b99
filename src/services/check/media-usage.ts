import { setImmediate as nextTurn } from 'node:timers/promises';
import type { MediaUsageTable } from '../../db/tables-usage.js';
import { indexesCollection, rowsOfRange } from '../media-usage/entries.js';
import { stateOps } from '../media-usage/state.js';
import type { CollectionInfo } from '../schema/model.js';
import { loadChunk } from '../search/documents.js';
import type { CheckDeps } from './index.js';
import { CHECK_BATCH, type Check, type CheckEnv } from './model.js';
import { pendingFindings } from './pending.js';

type Pending = ReturnType<typeof pendingFindings>;

const keyOf = (r: MediaUsageTable) => `${r.field_id}\u0000${r.media_id}\u0000${r.locale}\u0000${Number(r.live)}`;
const describe = (r: MediaUsageTable) =>
  `media ${r.media_id} in field ${r.field_id} (${r.locale}, ${Number(r.live) ? 'live' : 'draft only'})`;

/** Compare one entry's stored rows with the rows its values imply. */
function compareEntry(
  c: CollectionInfo,
  id: string,
  expected: MediaUsageTable[],
  stored: MediaUsageTable[],
  out: Pending,
) {
  const have = new Map<string, number>();
  for (const r of stored) have.set(keyOf(r), (have.get(keyOf(r)) ?? 0) + 1);
  for (const r of expected) {
    const n = have.get(keyOf(r)) ?? 0;
    if (n > 0) {
      have.set(keyOf(r), n - 1);
      continue;
    }
    out.add({
      code: 'MEDIA_USAGE_MISSING',
      message: `the entry references ${describe(r)} but the usage index has no such row`,
      collection: c.slug,
      subject: id,
      repairable: true,
    });
  }
  for (const r of stored) {
    const n = have.get(keyOf(r)) ?? 0;
    if (n <= 0) continue;
    have.set(keyOf(r), n - 1);
    out.add({
      code: 'MEDIA_USAGE_EXTRA',
      message: `the usage index lists ${describe(r)} but the entry's values do not reference it`,
      collection: c.slug,
      subject: id,
      repairable: true,
    });
  }
}

/**
 * Walk a collection's entries and its usage rows side by side in entry ID order, CHECK_BATCH
 * entries of each a step (a step covers IDs up to the lower of the two batches' last IDs, so rows
 * of entries that no longer exist are read in bounded steps too). The expected rows come from
 * `rowsOfRange`, the rule an index step writes by.
 */
async function scan({ ctx, snap }: CheckEnv<CheckDeps>, c: CollectionInfo, out: Pending, batch: number): Promise<void> {
  const capable = indexesCollection(c);
  let cursor: string | null = null;
  for (;;) {
    // SQLite answers synchronously: give requests a turn between batches of a long check.
    await nextTurn();
    // A collection without media-capable fields implies no rows: only its stored rows are read.
    const chunk: Awaited<ReturnType<typeof loadChunk>> = capable
      ? await loadChunk(ctx.db, c, cursor, batch)
      : { entries: [], ids: [], last: null };
    let q = ctx.db
      .selectFrom('_cms_media_usage')
      .select('entry_id')
      .distinct()
      .where('collection_id', '=', c.id)
      .orderBy('entry_id')
      .limit(batch);
    if (cursor !== null) q = q.where('entry_id', '>', cursor);
    const held = (await q.execute()).map((r) => r.entry_id);
    const ends = [chunk.ids.length === batch ? chunk.last : null, held.length === batch ? held.at(-1) : null]
      .filter((x): x is string => typeof x === 'string')
      .sort();
    const bound = ends[0] ?? null;
    const within = (id: string) => bound === null || id <= bound;
    const entries = chunk.entries.filter((e) => within(e.row.id));
    const { rows, skipped } = rowsOfRange(c, entries, snap);
    const ids = held.filter(within);
    const stored = ids.length
      ? await ctx.db
          .selectFrom('_cms_media_usage')
          .selectAll()
          .where('collection_id', '=', c.id)
          .where('entry_id', 'in', ids)
          .execute()
      : [];
    const byEntry = (list: MediaUsageTable[]) => {
      const m = new Map<string, MediaUsageTable[]>();
      for (const r of list) m.set(r.entry_id, [...(m.get(r.entry_id) ?? []), r]);
      return m;
    };
    const want = byEntry(rows);
    const have = byEntry(stored);
    const unreadable = new Set(skipped);
    for (const id of unreadable) {
      out.add({
        code: 'MEDIA_USAGE_UNREADABLE',
        message: "the entry's stored values cannot be read, so the media it references are unknown",
        collection: c.slug,
        subject: id,
        repairable: false,
      });
    }
    for (const id of new Set([...want.keys(), ...have.keys()])) {
      if (unreadable.has(id)) continue;
      compareEntry(c, id, want.get(id) ?? [], have.get(id) ?? [], out);
    }
    if (bound === null) return;
    cursor = bound;
  }
}

/**
 * While media usage tracking is active, every collection's `_cms_media_usage` rows are exactly
 * what its entries' values imply (each library item referenced by a top-level field of a
 * non-trashed entry, per locale, live or only in the pending draft). Repair rebuilds a collection
 * that differs with the media usage repair (bounded steps of their own transactions, under the
 * collection's index lock, so entry writes meanwhile win); it needs an operator (schema:manage).
 */
export const mediaUsageCheck = mediaUsageCheckOf(CHECK_BATCH);

/** The check reading `batch` entries a step (tests walk the step boundaries with a small one). */
export function mediaUsageCheckOf(batch: number): Check<CheckDeps> {
  return {
    id: 'media-usage',
    title: 'Media usage rows against the media references in every entry',
    async run(env, sink) {
      const { ctx, snap, repair, deps, actor } = env;
      const { state } = await stateOps(ctx).read();
      if (state !== 'active') {
        sink.skip(
          state === 'activating'
            ? 'media usage tracking is being activated; its index is complete once activation finishes'
            : `media usage tracking is not active (state ${state}); there is no index to compare`,
        );
        return;
      }
      for (const c of [...snap.collections.values()].sort((a, b) => a.slug.localeCompare(b.slug))) {
        const out = pendingFindings(sink);
        await scan(env, c, out, batch);
        const fixable = out.size > 0 && repair;
        let repaired = false;
        if (fixable) {
          const result = await deps.mediaUsage.repair(actor, { scope: 'collection', collection: c.slug });
          // `partial`: entries whose values cannot be read have no rows; every other row was rewritten.
          repaired = result.collections.every((r) => r.status === 'complete' || r.status === 'partial');
        }
        out.flush(repaired);
      }
    },
  };
}

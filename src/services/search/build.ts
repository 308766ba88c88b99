import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { CollectionInfo } from '../schema/model.js';
import { countEntries, documentsOf, loadChunk, loadEntries } from './documents.js';
import { indexTableName, type SearchEngine } from './engine.js';
import { addDocuments, finishHeads, type HeadSettings, headsStale, readHeadMeta, startHeads } from './heads.js';
import type { IndexShape } from './model.js';
import {
  defaultSettings,
  deleteSettings,
  lockCollection,
  readSettings,
  type SearchSettings,
  type SettingsCache,
  saveSettings as storeSettings,
} from './settings.js';
import { needsRebuild, planTiers, searchableFields, tierWeightsOf } from './tiers.js';

export interface IndexDeps {
  ctx: ServiceContext;
  schema: SchemaService;
  engine: SearchEngine;
  /** Entries per rebuild step; a collection this small is rebuilt inside the transaction that asked. */
  batch: number;
  /** Matches a query ranks at most per collection. */
  rankWindow: number;
  /** Head lists of common words (heads.ts). */
  heads: HeadSettings;
  /** Settings as searches read them (forgotten whenever they are saved here). */
  settings: SettingsCache;
}

export interface ReconcileOptions {
  /** Why a rebuild would start (shown in stats). */
  reason: string;
  /** Rebuild even when the index already has the wanted shape. */
  force?: boolean;
  /** Searchable fields that cannot hold values yet (just added, no default): joining the index needs no rebuild. */
  emptyFields?: ReadonlySet<string>;
}

const now = (deps: IndexDeps) => deps.ctx.clock.now().toISOString();

/** How far before a build's start its catch-up looks: schema caches, clocks and open transactions. */
const CATCH_UP_MARGIN_MS = 60_000;

/**
 * Index builds: a rebuild fills a new table in steps of `batch` entries (ID
 * order, the cursor kept in the settings row, so a step lost to a crash is
 * simply done again), while searches keep reading the previous index and
 * entry writes update both; the last step swaps the tables.
 */
export function buildOps(deps: IndexDeps) {
  const { ctx, engine } = deps;

  async function saveSettings(trx: Kdb, s: SearchSettings, at: string): Promise<void> {
    await storeSettings(trx, s, at);
    deps.settings.forget();
  }

  async function dropTables(trx: Kdb, s: SearchSettings): Promise<void> {
    if (s.build) await engine.drop(trx, s.build.table);
    if (s.index) await engine.drop(trx, s.index.table);
    s.build = null;
    s.index = null;
  }

  /**
   * One step of the build in progress; returns true when the build finished.
   * Indexing steps write `batch` entries each; then merging steps let the
   * engine compact what the steps wrote (bounded work each); ranking steps fill
   * the head lists of common words, `batch` documents each; the last one
   * catches up with writes that missed the new table and swaps.
   */
  async function step(trx: Kdb, c: CollectionInfo, s: SearchSettings): Promise<boolean> {
    const b = s.build;
    if (!b) return true;
    if (b.phase === 'indexing') {
      const chunk = await loadChunk(trx, c, b.cursor, deps.batch);
      const docs = chunk.entries.flatMap((e) => documentsOf(c, e, b.tiers));
      await engine.write(trx, b.table, b.tokenizer, chunk.ids, docs);
      b.cursor = chunk.last ?? b.cursor;
      b.done += chunk.entries.length;
      if (chunk.ids.length < deps.batch) b.phase = 'merging';
      return false;
    }
    if (b.phase === 'merging') {
      if (!(await engine.compact(trx, b.table))) return false;
      b.phase = 'ranking';
      b.cursor = null;
      // Substring indexes have no head lists; a table of an older layout (a build an earlier release
      // started) has none either and is rebuilt by the worker.
      if (b.tokenizer !== 'trigram' && !(await engine.outdated(trx, b.table))) return false;
    } else if (!(await rankingStep(trx, s, b))) {
      return false;
    }
    await catchUp(trx, c, b);
    const finished = now(deps);
    await engine.built(trx, b.table);
    if (s.index) await engine.drop(trx, s.index.table);
    s.index = { table: b.table, tokenizer: b.tokenizer, tiers: b.tiers };
    s.build = null;
    s.lastRebuildAt = finished;
    s.lastRebuildMs = Math.max(0, Date.parse(finished) - Date.parse(b.startedAt));
    return true;
  }

  /**
   * A step of the head lists' build: the first chooses the common keys (and
   * ends it when there are none, as in any small collection); the others add
   * `batch` documents each, in handle order. Entry writes meanwhile add their
   * own documents (heads.ts), so a document a step has passed stays listed.
   */
  async function rankingStep(trx: Kdb, s: SearchSettings, b: NonNullable<SearchSettings['build']>): Promise<boolean> {
    if (b.tokenizer === 'trigram') return true;
    if (b.cursor === null) {
      const weights = tierWeightsOf(b.tiers, s.weights);
      const keys = await startHeads(trx, ctx.dialect, b.table, engine.heads, b.tokenizer, weights, deps.heads);
      if (!keys) {
        await finishHeads(trx, ctx.dialect, b.table);
        return true;
      }
      b.cursor = '0';
      b.done = 0;
      b.total = (await engine.stats(trx, b.table)).documents;
      return false;
    }
    const meta = await readHeadMeta(trx, b.table);
    const docs = await engine.heads.tokensAfter(trx, b.table, b.tokenizer, Number(b.cursor), deps.batch);
    if (meta) await addDocuments(trx, ctx.dialect, b.table, engine.heads, meta, docs);
    await engine.heads.postings?.add(trx, b.table, docs);
    b.cursor = String(docs.at(-1)?.doc ?? b.cursor);
    b.done += docs.length;
    if (docs.length === deps.batch) return false;
    await finishHeads(trx, ctx.dialect, b.table);
    return true;
  }

  /**
   * Before the swap, index again what a writer that did not see the build
   * left behind: a process whose schema cache still said search was off (at
   * most a second) skips the index entirely. Entries written since the build
   * started (with a margin for clocks and transactions) whose documents do not
   * match their row version are rewritten; documents of vanished entries go.
   */
  async function catchUp(trx: Kdb, c: CollectionInfo, b: NonNullable<SearchSettings['build']>) {
    const since = new Date(Date.parse(b.startedAt) - CATCH_UP_MARGIN_MS).toISOString();
    const stale = await engine.stale(trx, b.table, c.table, since);
    for (let i = 0; i < stale.length; i += deps.batch) {
      const ids = stale.slice(i, i + deps.batch);
      const entries = await loadEntries(trx, c, ids);
      await engine.write(
        trx,
        b.table,
        b.tokenizer,
        ids,
        entries.flatMap((e) => documentsOf(c, e, b.tiers)),
      );
    }
  }

  async function startBuild(
    trx: Kdb,
    c: CollectionInfo,
    s: SearchSettings,
    target: Omit<IndexShape, 'table'>,
    reason: string,
  ) {
    if (s.build) await engine.drop(trx, s.build.table);
    s.generation += 1;
    const table = indexTableName(c.id, s.generation);
    // A leftover of lost settings (restored backup, manual cleanup) must not block the name.
    await engine.drop(trx, table);
    await engine.create(trx, table, target.tokenizer);
    const total = await countEntries(trx, c);
    s.build = { ...target, table, phase: 'indexing', cursor: null, done: 0, total, startedAt: now(deps), reason };
    // Small collections are rebuilt at once, inside the same transaction.
    if (total <= deps.batch) while (!(await step(trx, c, s)));
  }

  async function listsStale(trx: Kdb, shape: IndexShape, s: SearchSettings): Promise<boolean> {
    if (shape.tokenizer === 'trigram' || (await engine.outdated(trx, shape.table))) return false;
    return headsStale(trx, shape.table, tierWeightsOf(shape.tiers, s.weights));
  }

  /**
   * Bring a collection's index in line with its schema and settings, inside
   * `trx` (an entry write, a schema change or a settings change): create,
   * drop, reshape or leave it. Small collections are rebuilt right here; a
   * larger one gets a build that steps finish.
   */
  async function reconcile(trx: Kdb, collectionId: string, c: CollectionInfo | null, opts: ReconcileOptions) {
    await lockCollection(trx, ctx.dialect, collectionId, 'exclusive');
    const stored = await readSettings(trx, collectionId);
    if (!c) {
      if (stored) {
        await dropTables(trx, stored);
        await deleteSettings(trx, collectionId);
      }
      return null;
    }
    const s = stored ?? defaultSettings(collectionId);
    if (!c.supports.includes('search')) {
      if (stored && (stored.index || stored.build)) {
        await dropTables(trx, s);
        await saveSettings(trx, s, now(deps));
      }
      return stored;
    }
    const plan = planTiers(searchableFields(c.fields), s.weights, (s.build ?? s.index)?.tiers ?? null);
    const target = { tokenizer: s.tokenizer, tiers: plan.tiers };
    const fits = (shape: IndexShape | null): shape is IndexShape =>
      shape !== null &&
      shape.tokenizer === target.tokenizer &&
      !needsRebuild(shape.tiers, target.tiers, opts.emptyFields);
    if (!opts.force && (s.build ? fits(s.build) : fits(s.index))) {
      // Same documents: only the tier map grows (a new empty field) or weights moved; moved weights
      // choose other entries for the head lists, which a rebuild refreshes.
      const shape = s.build ?? s.index!;
      shape.tiers = target.tiers;
      if (await listsStale(trx, shape, s)) await startBuild(trx, c, s, target, 'weights changed');
    } else {
      await startBuild(trx, c, s, target, opts.reason);
    }
    await saveSettings(trx, s, now(deps));
    return s;
  }

  /**
   * Run steps of a collection's build, each in its own transaction, until it
   * is done or `budgetMs` is spent. Any process may call this at any time.
   */
  async function advance(collectionId: string, budgetMs: number): Promise<void> {
    const started = Date.now();
    for (;;) {
      const finished = await ctx.db.transaction().execute(async (trx) => {
        await lockCollection(trx, ctx.dialect, collectionId, 'exclusive');
        const s = await readSettings(trx, collectionId);
        if (!s?.build) return true;
        const c = (await deps.schema.cache.fresh(trx)).collectionsById.get(collectionId);
        if (!c) return true;
        const done = await step(trx, c, s);
        await saveSettings(trx, s, now(deps));
        return done;
      });
      // Searches read the settings again once the step is visible.
      deps.settings.forget();
      if (finished || Date.now() - started >= budgetMs) return;
      // A turn of the event loop between steps: SQLite queries complete synchronously, so without it
      // the process would read no request (edits, health checks) for the whole budget.
      await nextTurn();
    }
  }

  return { reconcile, advance, step, saveSettings };
}

export type BuildOps = ReturnType<typeof buildOps>;

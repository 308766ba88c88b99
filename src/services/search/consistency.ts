import type { Kdb } from '../../db/connect.js';
import type { CollectionInfo } from '../schema/model.js';
import type { BuildOps, IndexDeps } from './build.js';
import { documentsOf, type IndexedEntry, loadChunk } from './documents.js';
import type { DocumentKey } from './engine.js';
import type { TierMap } from './model.js';
import { lockCollection, readAllSettings, readSettings, type SearchSettings } from './settings.js';

/**
 * What the consistency checker needs of the search index: the documents the index holds and
 * the ones the content implies (by the rule the index is written with, `documentsOf`), and the
 * repairs, which go through the build machinery (a forced rebuild, a reconcile, a drop).
 */
export function consistencyOps(deps: IndexDeps, builds: BuildOps) {
  const { ctx, engine } = deps;

  /** The documents an entry should have in an index of these tiers (none when trashed). */
  function expectedKeys(c: CollectionInfo, entry: IndexedEntry, tiers: TierMap): DocumentKey[] {
    return documentsOf(c, entry, tiers).map((d) => ({
      entryId: d.entryId,
      version: d.version,
      live: d.live,
      current: d.current,
      locale: d.locale,
      status: d.status,
    }));
  }

  /**
   * Rebuild a collection's index from the content: a forced reconcile starts a build (a small
   * collection is built at once), then steps run until it swaps or `budgetMs` is spent. True
   * when the rebuilt index is the one searches read.
   */
  async function rebuild(c: CollectionInfo, budgetMs: number): Promise<boolean> {
    const started = await ctx.db.transaction().execute(async (trx) => {
      const fresh = (await deps.schema.cache.fresh(trx)).collectionsById.get(c.id);
      if (!fresh?.supports.includes('search')) return false;
      await builds.reconcile(trx, c.id, fresh, { reason: 'consistency check', force: true });
      return true;
    });
    deps.settings.forget();
    if (!started) return false;
    await builds.advance(c.id, budgetMs);
    const s = await readSettings(ctx.db, c.id);
    return !!s?.index && !s.build;
  }

  /** Let the schema decide again (search disabled: the settings' tables are dropped). */
  async function reconcile(collectionId: string): Promise<void> {
    await ctx.db.transaction().execute(async (trx) => {
      const fresh = (await deps.schema.cache.fresh(trx)).collectionsById.get(collectionId) ?? null;
      await builds.reconcile(trx, collectionId, fresh, { reason: 'consistency check' });
    });
    deps.settings.forget();
  }

  /**
   * Drop an index table no settings row names. Re-checked under the collection's lock: a build
   * that started since the scan and named the table keeps it.
   */
  async function dropLeftover(table: string, collectionId: string | null): Promise<boolean> {
    return ctx.db.transaction().execute(async (trx) => {
      if (collectionId) await lockCollection(trx, ctx.dialect, collectionId, 'exclusive');
      if (referenced(await readAllSettings(trx)).has(table)) return false;
      await engine.drop(trx, table);
      return true;
    });
  }

  return {
    engine,
    expectedKeys,
    rebuild,
    reconcile,
    dropLeftover,
    settings: (db: Kdb, collectionId: string) => readSettings(db, collectionId),
    allSettings: (db: Kdb) => readAllSettings(db),
    /** Entries after `cursor` in ID order with their drafts, trash included in `ids` (as a build reads them). */
    chunk: (db: Kdb, c: CollectionInfo, cursor: string | null, limit: number) => loadChunk(db, c, cursor, limit),
  };
}

/** The index tables the settings name (the one searches read and a build in progress). */
export function referenced(settings: Map<string, SearchSettings>): Set<string> {
  const out = new Set<string>();
  for (const s of settings.values()) {
    if (s.index) out.add(s.index.table);
    if (s.build) out.add(s.build.table);
  }
  return out;
}

export type SearchConsistency = ReturnType<typeof consistencyOps>;

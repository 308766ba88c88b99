import type { Logger } from '../../core/log.js';
import { periodic } from '../background.js';
import type { BuildOps, IndexDeps } from './build.js';
import { headsOutgrown, trimHeads } from './heads.js';
import { lockCollection, readAllSettings } from './settings.js';

/** How often a process looks for index work (builds to finish, collections to index). */
export const WORKER_INTERVAL_MS = 2_000;
/** A worker pass steps one build at most this long before looking at the others. */
const PASS_BUDGET_MS = 5_000;
/** How often a process looks after an index's head lists (cut long ones back, rebuild an outgrown index). */
export const HEADS_CHECK_MS = 10 * 60_000;

/**
 * Background index work, in every process: finish builds that requests
 * started (steps are serialised per collection, so processes never step on
 * each other), index collections whose `supports: search` was set without
 * the search service seeing it (before migration 009, or by a direct write),
 * and rebuild indexes an older release stored in a layout since replaced.
 */
export function workerOps(deps: IndexDeps, builds: BuildOps, log: Logger) {
  const { ctx } = deps;
  /** Index table → when this process last looked after its head lists. */
  const checked = new Map<string, number>();

  /** Due for a look (the first pass of a process looks at every index). */
  function due(table: string): boolean {
    const last = checked.get(table);
    const at = Date.now();
    if (last !== undefined && at - last < HEADS_CHECK_MS) return false;
    checked.set(table, at);
    return true;
  }

  /**
   * Head list upkeep: lists that entry writes grew past twice their size are
   * cut back; true when the index doubled since its build, so a rebuild can
   * give the words that became common their lists.
   */
  async function outgrown(collectionId: string, table: string, tokenizer: string): Promise<boolean> {
    if (tokenizer === 'trigram' || !due(table) || (await deps.engine.outdated(ctx.db, table))) return false;
    if (await headsOutgrown(ctx.db, table, deps.engine.heads)) return true;
    await ctx.db.transaction().execute(async (trx) => {
      await lockCollection(trx, ctx.dialect, collectionId, 'exclusive');
      await trimHeads(trx, ctx.dialect, table);
    });
    return false;
  }

  async function runOnce(): Promise<void> {
    const snap = await deps.schema.snapshot();
    const settings = await readAllSettings(ctx.db);
    for (const c of snap.collections.values()) {
      const s = settings.get(c.id);
      const wanted = c.supports.includes('search');
      const hasTables = !!(s?.index || s?.build);
      if (wanted !== hasTables) {
        await ctx.db.transaction().execute((trx) => builds.reconcile(trx, c.id, c, { reason: 'enabled' }));
      }
    }
    for (const [id, s] of settings) {
      if (!snap.collectionsById.has(id)) {
        await ctx.db.transaction().execute((trx) => builds.reconcile(trx, id, null, { reason: 'collection deleted' }));
      } else if (s.build) {
        await builds.advance(id, PASS_BUDGET_MS);
      } else if (s.index && (await deps.engine.outdated(ctx.db, s.index.table))) {
        // An index from before a storage change: rebuilt in the current layout while it keeps serving.
        await ctx.db
          .transaction()
          .execute((trx) =>
            builds.reconcile(trx, id, snap.collectionsById.get(id)!, { reason: 'storage upgrade', force: true }),
          );
      } else if (s.index && (await outgrown(id, s.index.table, s.index.tokenizer))) {
        // Twice the entries of its build: words that became common get head lists.
        await ctx.db
          .transaction()
          .execute((trx) => builds.reconcile(trx, id, snap.collectionsById.get(id)!, { reason: 'grown', force: true }));
      }
    }
  }

  return { runOnce, ...periodic(log, 'search index worker', WORKER_INTERVAL_MS, runOnce) };
}

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, notFound } from '../../core/errors.js';
import type { CollectionInfo } from '../schema/model.js';
import { requireOperator, type UsageDeps } from './deps.js';
import { indexesCollection, indexRange, lockCollectionIndex } from './entries.js';
import { activationBlocked } from './state.js';
import { codeOf } from './work.js';

export type RepairStatus = 'complete' | 'partial' | 'failed' | 'stale';

export interface CollectionRepair {
  collection: string;
  status: RepairStatus;
  /** Source counts: entries read, entries referencing media, index rows written, entries skipped. */
  entries: number;
  referencing: number;
  references: number;
  skipped: number;
  errorCode: string | null;
}

/** Where a collection's repair stands between steps (kept by the caller). */
export interface RepairProgress {
  collectionId: string;
  signature: string;
  cursor: string | null;
  done: boolean;
  result: CollectionRepair;
}

export interface RepairResult {
  status: RepairStatus;
  collections: CollectionRepair[];
}

/** What decides a collection's rows besides its entries: its media-capable fields and their types. */
const signature = (c: CollectionInfo | undefined) =>
  c ? JSON.stringify(c.fields.map((f) => [f.id, f.type, f.validation?.subFields ?? null])) : 'gone';

/**
 * Rebuild the rows of one collection or of all (sequentially, in bounded
 * steps of their own transactions, in this request). A collection is
 * `partial` when entries could not be read, `failed` when a step failed,
 * `stale` when its schema changed while it was being repaired.
 */
export function repairOps(deps: UsageDeps) {
  const { ctx, schema, state } = deps;
  const now = () => isoNow(ctx.clock);

  function fresh(c: CollectionInfo): RepairProgress {
    return {
      collectionId: c.id,
      signature: signature(c),
      cursor: null,
      done: false,
      result: {
        collection: c.slug,
        status: 'complete',
        entries: 0,
        referencing: 0,
        references: 0,
        skipped: 0,
        errorCode: null,
      },
    };
  }

  /**
   * Index ranges of one collection from `progress` on, for at most `budgetMs`
   * (at least one range); the coverage is recorded once the collection is done.
   */
  async function advance(c: CollectionInfo, progress: RepairProgress, budgetMs: number): Promise<RepairProgress> {
    const out = { ...progress, result: { ...progress.result } };
    const began = Date.now();
    try {
      do {
        const snap = await schema.snapshot();
        const current = snap.collectionsById.get(c.id);
        if (signature(current) !== out.signature || !current) {
          out.result.status = 'stale';
          out.done = true;
          break;
        }
        const r = await ctx.db.transaction().execute(async (trx) => {
          await lockCollectionIndex(trx, ctx.dialect, c.id, 'exclusive');
          return indexRange(trx, current, out.cursor, deps.batch, snap);
        });
        out.result.entries += r.entries;
        out.result.referencing += r.referencing;
        out.result.references += r.references;
        out.result.skipped += r.skipped;
        out.cursor = r.last;
        out.done = r.done;
        // A turn of the event loop between ranges: SQLite queries complete synchronously, so without
        // it the process would read no request for the whole budget (as the search rebuild learned).
        if (!out.done) await nextTurn();
      } while (!out.done && Date.now() - began < budgetMs);
      if (out.done && out.result.status === 'complete' && out.result.skipped) out.result.status = 'partial';
    } catch (err) {
      ctx.log.error({ err, collection: c.slug }, 'media usage repair failed');
      out.result.status = 'failed';
      out.result.errorCode = codeOf(err);
      out.done = true;
    }
    if (out.done) await record(c, out.result);
    return out;
  }

  async function repairOne(c: CollectionInfo): Promise<CollectionRepair> {
    return (await advance(c, fresh(c), Number.POSITIVE_INFINITY)).result;
  }

  /**
   * One bounded part of a collection's repair (a site import rebuilds each
   * collection's index this way, a step at a time): give back the progress it
   * answers until `done`.
   */
  async function repairStep(
    actor: Actor,
    slug: string,
    progress: RepairProgress | null,
    budgetMs: number,
  ): Promise<RepairProgress> {
    requireOperator(actor);
    await requireActive();
    const c = (await schema.snapshot()).collections.get(slug);
    if (!c) throw notFound(`Collection "${slug}"`);
    return advance(c, progress && progress.collectionId === c.id ? progress : fresh(c), budgetMs);
  }

  async function record(c: CollectionInfo, r: CollectionRepair): Promise<void> {
    const at = now();
    const values = {
      slug: c.slug,
      status: r.status,
      entries: r.entries,
      referencing: r.referencing,
      references: r.references,
      skipped: r.skipped,
      last_error_code: r.errorCode,
      updated_at: at,
    };
    // Only a collection that still exists keeps a coverage row.
    if (!(await schema.snapshot()).collectionsById.has(c.id)) return;
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('_cms_media_usage_collections')
        .values({ collection_id: c.id, ...values })
        .onConflict((oc) => oc.column('collection_id').doUpdateSet(values))
        .execute();
      if (r.status === 'complete' || r.status === 'partial') {
        // The repair did what waiting historical indexing of this collection would do.
        await trx
          .updateTable('_cms_media_usage_work')
          .set((eb) => ({ status: 'done', updated_at: at, version: eb('version', '+', 1) }))
          .where('collection_id', '=', c.id)
          .where('kind', '=', 'index')
          .where('status', 'in', ['pending', 'failed'])
          .execute();
      }
    });
  }

  async function repair(
    actor: Actor,
    input: { scope: 'collection'; collection: string } | { scope: 'all' },
  ): Promise<RepairResult> {
    requireOperator(actor);
    await requireActive();
    const snap = await schema.snapshot();
    let targets: CollectionInfo[];
    if (input.scope === 'collection') {
      const c = snap.collections.get(input.collection);
      if (!c) throw notFound(`Collection "${input.collection}"`);
      targets = [c];
    } else {
      targets = [...snap.collections.values()].sort((a, b) => a.slug.localeCompare(b.slug));
    }
    const collections: CollectionRepair[] = [];
    for (const c of targets) {
      if (!indexesCollection(c)) {
        // Rows of fields that no longer exist would still be cleared by a rebuild: run it anyway when any remain.
        collections.push(await repairIfRows(c, fresh(c).result));
        continue;
      }
      collections.push(await repairOne(c));
    }
    return { status: overall(collections), collections };
  }

  async function repairIfRows(c: CollectionInfo, empty: CollectionRepair): Promise<CollectionRepair> {
    const any = await ctx.db
      .selectFrom('_cms_media_usage')
      .select('entry_id')
      .where('collection_id', '=', c.id)
      .limit(1)
      .executeTakeFirst();
    if (any) return repairOne(c);
    await record(c, empty);
    return empty;
  }

  async function requireActive(): Promise<void> {
    const row = await state.read();
    if (row.state === 'activating') throw activationBlocked();
    if (row.state !== 'active') {
      throw new CmsError('INVALID_STATE', 'Media usage tracking is not active; activate it first', {
        state: row.state,
      });
    }
  }

  return { repair, repairStep };
}

function overall(list: CollectionRepair[]): RepairStatus {
  if (!list.length) return 'complete';
  if (list.every((c) => c.status === 'failed')) return 'failed';
  if (list.some((c) => c.status === 'stale')) return 'stale';
  if (list.some((c) => c.status !== 'complete')) return 'partial';
  return 'complete';
}

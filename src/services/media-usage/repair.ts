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

  async function repairOne(c: CollectionInfo): Promise<CollectionRepair> {
    const out: CollectionRepair = {
      collection: c.slug,
      status: 'complete',
      entries: 0,
      referencing: 0,
      references: 0,
      skipped: 0,
      errorCode: null,
    };
    const before = signature(c);
    try {
      let cursor: string | null = null;
      for (;;) {
        const snap = await schema.snapshot();
        const current = snap.collectionsById.get(c.id);
        if (signature(current) !== before || !current) {
          out.status = 'stale';
          break;
        }
        const r = await ctx.db.transaction().execute(async (trx) => {
          await lockCollectionIndex(trx, ctx.dialect, c.id, 'exclusive');
          return indexRange(trx, current, cursor, deps.batch, snap);
        });
        out.entries += r.entries;
        out.referencing += r.referencing;
        out.references += r.references;
        out.skipped += r.skipped;
        cursor = r.last;
        if (r.done) break;
      }
      if (out.status === 'complete' && out.skipped) out.status = 'partial';
    } catch (err) {
      ctx.log.error({ err, collection: c.slug }, 'media usage repair failed');
      out.status = 'failed';
      out.errorCode = codeOf(err);
    }
    await record(c, out);
    return out;
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
    const row = await state.read();
    if (row.state === 'activating') throw activationBlocked();
    if (row.state !== 'active') {
      throw new CmsError('INVALID_STATE', 'Media usage tracking is not active; activate it first', {
        state: row.state,
      });
    }
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
        const empty: CollectionRepair = {
          collection: c.slug,
          status: 'complete',
          entries: 0,
          referencing: 0,
          references: 0,
          skipped: 0,
          errorCode: null,
        };
        // Rows of fields that no longer exist would still be cleared by a rebuild: run it anyway when any remain.
        collections.push(await repairIfRows(c, empty));
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

  return { repair };
}

function overall(list: CollectionRepair[]): RepairStatus {
  if (!list.length) return 'complete';
  if (list.every((c) => c.status === 'failed')) return 'failed';
  if (list.some((c) => c.status === 'stale')) return 'stale';
  if (list.some((c) => c.status !== 'complete')) return 'partial';
  return 'complete';
}

import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { CmsError } from '../../core/errors.js';
import type { Coverage } from '../media/usage.js';
import { requireOperator, type UsageDeps } from './deps.js';
import { indexesCollection } from './entries.js';
import { siteCoverage } from './source.js';
import type { StateRow } from './state.js';
import { codeOf, type WorkOps } from './work.js';
import { enqueueWork } from './work-rows.js';

/** Collections one progress request prepares while activating. */
const PREPARE_PER_REQUEST = 20;

export interface ActivationView {
  state: string;
  lastErrorCode: string | null;
  startedAt: string | null;
  activatedAt: string | null;
}

export interface CollectionProgress {
  collection: string;
  status: string;
  entries: number;
  referencing: number;
  references: number;
  skipped: number;
  lastErrorCode: string | null;
}

export interface ProgressView extends ActivationView {
  coverage: Coverage;
  /** When to send the next progress request; null once historical indexing is finished (or blocked). */
  nextRequestInMs: number | null;
  collections: CollectionProgress[];
}

const view = (r: StateRow): ActivationView => ({
  state: r.state,
  lastErrorCode: r.last_error_code,
  startedAt: r.started_at,
  activatedAt: r.activated_at,
});

/**
 * Activation of tracking on a site written without it: `expanded` →
 * (one request with `writersDrained: true`) → `activating` (collections are
 * prepared; writes through the service are refused) → `active` (writes are
 * tracked; historical indexing goes on through progress requests). There is
 * no way back.
 */
export function activationOps(deps: UsageDeps, work: WorkOps) {
  const { ctx, schema, state } = deps;
  const now = () => isoNow(ctx.clock);

  async function get(actor: Actor): Promise<ActivationView> {
    requireOperator(actor);
    return view(await state.read());
  }

  async function advance(actor: Actor, input: { writersDrained: true; retry?: boolean }): Promise<ActivationView> {
    requireOperator(actor);
    const at = now();
    if (input.retry) {
      // The confirmed retry after a failure: clears the error so progress requests go on.
      await ctx.db
        .updateTable('_cms_media_usage_state')
        .set({ last_error_code: null, updated_at: at })
        .where('id', '=', 'site')
        .where('last_error_code', 'is not', null)
        .execute();
      return view(await state.read());
    }
    // The switch waits (PostgreSQL) for writers holding the state row shared to commit.
    await ctx.db
      .updateTable('_cms_media_usage_state')
      .set({ state: 'activating', started_at: at, updated_at: at })
      .where('id', '=', 'site')
      .where('state', '=', 'expanded')
      .execute();
    // Already activating or active: answered as it is (activation cannot be restarted).
    return view(await state.read());
  }

  /** Prepare a few collections: clear rows left from before, record coverage, queue historical indexing. */
  async function prepare(): Promise<void> {
    const snap = await schema.snapshot();
    const done = new Set(
      (await ctx.db.selectFrom('_cms_media_usage_collections').select('collection_id').execute()).map(
        (r) => r.collection_id,
      ),
    );
    const todo = [...snap.collectionsById.values()].filter((c) => !done.has(c.id));
    for (const c of todo.slice(0, PREPARE_PER_REQUEST)) {
      await ctx.db.transaction().execute(async (trx) => {
        const at = now();
        await trx.deleteFrom('_cms_media_usage').where('collection_id', '=', c.id).execute();
        const indexes = indexesCollection(c);
        await trx
          .insertInto('_cms_media_usage_collections')
          .values({
            collection_id: c.id,
            slug: c.slug,
            status: indexes ? 'pending' : 'complete',
            entries: 0,
            referencing: 0,
            references: 0,
            skipped: 0,
            last_error_code: null,
            updated_at: at,
          })
          .execute();
        if (indexes) await enqueueWork(trx, 'index', c, at);
      });
    }
    if (todo.length > PREPARE_PER_REQUEST) return;
    await ctx.db.transaction().execute(async (trx) => {
      const live = [...snap.collectionsById.keys()];
      // Rows of collections deleted before activation belong to nothing.
      let q = trx.deleteFrom('_cms_media_usage');
      if (live.length) q = q.where('collection_id', 'not in', live);
      await q.execute();
      const at = now();
      await trx
        .updateTable('_cms_media_usage_state')
        .set({ state: 'active', activated_at: at, updated_at: at })
        .where('id', '=', 'site')
        .where('state', '=', 'activating')
        .execute();
    });
  }

  async function progressView(): Promise<ProgressView> {
    const row = await state.read();
    const cols = await ctx.db.selectFrom('_cms_media_usage_collections').selectAll().orderBy('slug').execute();
    return {
      ...view(row),
      coverage: await siteCoverage(ctx.db, state),
      nextRequestInMs: null,
      collections: cols.map((c) => ({
        collection: c.slug,
        status: c.status,
        entries: c.entries,
        referencing: c.referencing,
        references: c.references,
        skipped: c.skipped,
        lastErrorCode: c.last_error_code,
      })),
    };
  }

  async function progress(actor: Actor): Promise<ProgressView> {
    requireOperator(actor);
    const out = await progressView();
    out.nextRequestInMs = await pendingWait(out);
    return out;
  }

  /** 0 when more can be done now, the time until a lease ends when another process holds the rest, else null. */
  async function pendingWait(v: ProgressView): Promise<number | null> {
    if (v.state === 'expanded' || v.lastErrorCode) return null;
    if (v.state === 'activating') return 0;
    const open = await ctx.db
      .selectFrom('_cms_media_usage_work')
      .select(['status', 'lease_expires_at'])
      .where('status', 'in', ['pending', 'running'])
      .execute();
    if (!open.length) return null;
    const at = now();
    const live = open.filter((r) => r.status === 'running' && r.lease_expires_at && r.lease_expires_at > at);
    if (live.length < open.length) return 0;
    const first = Math.min(...live.map((r) => Date.parse(r.lease_expires_at as string)));
    return Math.max(first - ctx.clock.now().getTime(), 1);
  }

  /** One bounded step: prepare collections while activating, then historical indexing and other work. */
  async function advanceProgress(actor: Actor): Promise<ProgressView> {
    requireOperator(actor);
    const row = await state.read();
    if (row.state === 'expanded') {
      throw new CmsError('INVALID_STATE', 'Tracking is off: send the activation request first', { state: row.state });
    }
    if (row.last_error_code) {
      throw new CmsError('INVALID_STATE', 'Activation stopped on an error: resolve it, then send a confirmed retry', {
        lastErrorCode: row.last_error_code,
      });
    }
    if (row.state === 'activating') {
      try {
        await prepare();
      } catch (err) {
        ctx.log.error({ err }, 'media usage activation step failed');
        await ctx.db
          .updateTable('_cms_media_usage_state')
          .set({ last_error_code: codeOf(err), updated_at: now() })
          .where('id', '=', 'site')
          .execute();
      }
    } else if (row.state === 'active') {
      const next = await work.next();
      if (next && 'item' in next) await work.step(next.item);
    }
    return progress(actor);
  }

  return { get, advance, progress, advanceProgress };
}

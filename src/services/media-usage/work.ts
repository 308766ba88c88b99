import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, isCmsError, notFound, validationError } from '../../core/errors.js';
import { randomToken } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { MediaUsageWorkTable } from '../../db/tables-usage.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { requireOperator, type UsageDeps } from './deps.js';
import { indexRange, lockCollectionIndex } from './entries.js';
import { presentWork, type WorkItem, type WorkKind } from './work-rows.js';

type Claimed = MediaUsageWorkTable & { lease_token: string };

/** Steps a retry runs in its request before leaving the rest to progress requests. */
const RETRY_STEPS = 50;

export const codeOf = (err: unknown): string => (isCmsError(err) ? err.code : 'INTERNAL_ERROR');

const changed = () => new CmsError('WORK_CHANGED', 'Another request changed this work item; read it again');

/**
 * Work items: historical indexing of a collection and clearing a deleted
 * collection's rows. A process claims an item with a lease (compare-and-set on
 * its version), runs one bounded step in one transaction that also records
 * the step (so a process killed mid-step leaves nothing half-done: the step
 * rolls back and the item is claimable again when the lease expires), and
 * hands the item back.
 */
export function workOps(deps: UsageDeps) {
  const { ctx, schema } = deps;
  const now = () => isoNow(ctx.clock);

  async function claim(row: MediaUsageWorkTable): Promise<Claimed | null> {
    const token = randomToken(16);
    const at = now();
    const expires = new Date(ctx.clock.now().getTime() + deps.leaseMs).toISOString();
    const res = await ctx.db
      .updateTable('_cms_media_usage_work')
      .set({
        status: 'running',
        lease_token: token,
        lease_expires_at: expires,
        attempts: row.attempts + 1,
        last_error_code: null,
        version: row.version + 1,
        updated_at: at,
      })
      .where('id', '=', row.id)
      .where('version', '=', row.version)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    return {
      ...row,
      status: 'running',
      lease_token: token,
      lease_expires_at: expires,
      attempts: row.attempts + 1,
      last_error_code: null,
      version: row.version + 1,
      updated_at: at,
    };
  }

  const leaseLive = (r: MediaUsageWorkTable, at: string) =>
    r.status === 'running' && r.lease_expires_at !== null && r.lease_expires_at > at;

  /** Claim the oldest item that is waiting (or whose lease expired); else how long until a lease ends. */
  async function next(): Promise<{ item: Claimed } | { waitMs: number } | null> {
    const at = now();
    const rows = await ctx.db
      .selectFrom('_cms_media_usage_work')
      .selectAll()
      .where('status', 'in', ['pending', 'running'])
      .orderBy('created_at')
      .orderBy('id')
      .limit(20)
      .execute();
    let wait: number | null = null;
    for (const r of rows) {
      if (leaseLive(r, at)) {
        const ms = Date.parse(r.lease_expires_at as string) - ctx.clock.now().getTime();
        wait = wait === null ? ms : Math.min(wait, ms);
        continue;
      }
      const item = await claim(r);
      if (item) return { item };
    }
    return wait === null ? null : { waitMs: Math.max(wait, 1) };
  }

  /** Record a step (or the end) of an item this process holds; WORK_CHANGED when it no longer does. */
  async function record(trx: Kdb, item: Claimed, cursor: string | null, done: boolean): Promise<void> {
    const res = await trx
      .updateTable('_cms_media_usage_work')
      .set({
        cursor,
        status: done ? 'done' : 'pending',
        lease_token: null,
        lease_expires_at: null,
        version: item.version + 1,
        updated_at: now(),
      })
      .where('id', '=', item.id)
      .where('lease_token', '=', item.lease_token)
      .where('version', '=', item.version)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw changed();
  }

  async function indexStep(trx: Kdb, item: Claimed, snap: SchemaSnapshot): Promise<boolean> {
    const c = snap.collectionsById.get(item.collection_id);
    if (!c) {
      await record(trx, item, item.cursor, true);
      return true;
    }
    await lockCollectionIndex(trx, ctx.dialect, c.id, 'exclusive');
    const r = await indexRange(trx, c, item.cursor, deps.batch, snap);
    const first = item.cursor === null;
    const prev = await trx
      .selectFrom('_cms_media_usage_collections')
      .selectAll()
      .where('collection_id', '=', c.id)
      .executeTakeFirst();
    const base = first || !prev ? { entries: 0, referencing: 0, references: 0, skipped: 0 } : prev;
    const totals = {
      entries: base.entries + r.entries,
      referencing: base.referencing + r.referencing,
      references: base.references + r.references,
      skipped: base.skipped + r.skipped,
    };
    const status = !r.done ? 'running' : totals.skipped ? 'partial' : 'complete';
    await trx
      .insertInto('_cms_media_usage_collections')
      .values({ collection_id: c.id, slug: c.slug, status, ...totals, last_error_code: null, updated_at: now() })
      .onConflict((oc) =>
        oc
          .column('collection_id')
          .doUpdateSet({ slug: c.slug, status, ...totals, last_error_code: null, updated_at: now() }),
      )
      .execute();
    await record(trx, item, r.last, r.done);
    return r.done;
  }

  async function deletionStep(trx: Kdb, item: Claimed): Promise<boolean> {
    const rows = await trx
      .selectFrom('_cms_media_usage')
      .select('entry_id')
      .where('collection_id', '=', item.collection_id)
      .limit(deps.batch)
      .execute();
    const ids = [...new Set(rows.map((r) => r.entry_id))];
    if (ids.length) {
      await trx
        .deleteFrom('_cms_media_usage')
        .where('collection_id', '=', item.collection_id)
        .where('entry_id', 'in', ids)
        .execute();
    }
    const done = rows.length < deps.batch;
    await record(trx, item, null, done);
    return done;
  }

  /** Run one step of a claimed item; a failure is recorded on it (a stable code, never the raw error). */
  async function step(item: Claimed): Promise<{ done: boolean; failed: boolean }> {
    try {
      // Read outside the transaction: on SQLite a cache refresh inside it would wait for its own connection.
      const snap = await schema.snapshot();
      const done = await ctx.db
        .transaction()
        .execute((trx) => (item.kind === 'index' ? indexStep(trx, item, snap) : deletionStep(trx, item)));
      return { done, failed: false };
    } catch (err) {
      if (isCmsError(err) && err.code === 'WORK_CHANGED') throw err;
      ctx.log.error({ work: item.id, kind: item.kind, err }, 'media usage work step failed');
      await fail(item, codeOf(err));
      return { done: true, failed: true };
    }
  }

  async function fail(item: Claimed, code: string): Promise<void> {
    const at = now();
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('_cms_media_usage_work')
        .set({
          status: 'failed',
          last_error_code: code,
          lease_token: null,
          lease_expires_at: null,
          version: item.version + 1,
          updated_at: at,
        })
        .where('id', '=', item.id)
        .where('lease_token', '=', item.lease_token)
        .execute();
      if (item.kind === 'index') {
        await trx
          .updateTable('_cms_media_usage_collections')
          .set({ status: 'failed', last_error_code: code, updated_at: at })
          .where('collection_id', '=', item.collection_id)
          .execute();
      }
    });
  }

  async function load(id: string, kind?: WorkKind): Promise<MediaUsageWorkTable> {
    let q = ctx.db.selectFrom('_cms_media_usage_work').selectAll().where('id', '=', id);
    if (kind) q = q.where('kind', '=', kind);
    const row = await q.executeTakeFirst();
    if (!row) throw notFound('Work item');
    return row;
  }

  /**
   * Run one item again now: a failed item, one whose holder died (lease
   * expired) or one still waiting. Idempotent: a finished item is answered as
   * it is; an item another process holds is WORK_LEASE_ACTIVE; a version that
   * no longer matches is WORK_CHANGED.
   */
  async function retry(actor: Actor, input: { id: string; version?: number }, kind?: WorkKind): Promise<WorkItem> {
    requireOperator(actor);
    const row = await load(input.id, kind);
    if (leaseLive(row, now())) {
      throw new CmsError('WORK_LEASE_ACTIVE', 'A worker is still processing this work item', {
        leaseExpiresAt: row.lease_expires_at,
      });
    }
    if (input.version !== undefined && input.version !== row.version) throw changed();
    if (row.status === 'done') return presentWork(row);
    let item = await claim(row);
    if (!item) throw changed();
    for (let i = 0; i < RETRY_STEPS; i++) {
      const r = await step(item);
      if (r.done) break;
      const again = await load(item.id);
      if (again.status !== 'pending') break;
      const next = await claim(again);
      if (!next) break;
      item = next;
    }
    return presentWork(await load(input.id));
  }

  /** Newest first; nothing about entries, media or leases beyond their expiry. */
  async function list(
    actor: Actor,
    options: { kind?: WorkKind; cursor?: string; limit?: number },
  ): Promise<{ items: WorkItem[]; nextCursor?: string; backlog: 'none' | 'some' }> {
    requireOperator(actor);
    const limit = options.limit ?? 50;
    let q = ctx.db
      .selectFrom('_cms_media_usage_work')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (options.kind) q = q.where('kind', '=', options.kind);
    if (options.cursor !== undefined) {
      const after = Buffer.from(options.cursor, 'base64url').toString('utf8');
      if (!/^[0-9A-Z]{26}$/.test(after)) {
        throw validationError('Invalid cursor', {
          issues: [{ path: ['cursor'], code: 'invalid', message: 'bad cursor' }],
        });
      }
      q = q.where('id', '<', after);
    }
    const rows = await q.execute();
    const page = rows.slice(0, limit);
    let open = ctx.db
      .selectFrom('_cms_media_usage_work')
      .select('id')
      .where('status', 'in', ['pending', 'running', 'failed'])
      .limit(1);
    if (options.kind) open = open.where('kind', '=', options.kind);
    const waiting = await open.executeTakeFirst();
    const last = page.at(-1);
    return {
      items: page.map(presentWork),
      backlog: waiting ? 'some' : 'none',
      ...(rows.length > limit && last ? { nextCursor: Buffer.from(last.id).toString('base64url') } : {}),
    };
  }

  return { next, step, retry, list };
}

export type WorkOps = ReturnType<typeof workOps>;

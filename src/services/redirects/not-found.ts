import { sql } from 'kysely';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { cursorInteger, cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { isStorableText } from '../../core/text.js';
import type { Kdb } from '../../db/connect.js';
import type { NotFoundTable } from '../../db/tables-public.js';
import type { ServiceContext } from '../context.js';

/** Stored lengths: longer paths and referrers are cut (a scanner's megabyte URL stays small). */
export const MAX_LOGGED_PATH = 1000;
export const MAX_LOGGED_REFERRER = 500;
/** Distinct (path, referrer) pairs held between two flushes; hits past it only count as evicted. */
const MAX_PENDING = 1000;
const EVICTED_KEY = 'not_found_evicted';

export interface NotFoundEntry {
  id: string;
  path: string;
  referrer: string | null;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

export interface NotFoundGroup {
  path: string;
  count: number;
  referrers: number;
  firstSeen: string;
  lastSeen: string;
}

export interface PruneSelection {
  ids?: string[];
  paths?: string[];
  /** Entries last seen before this instant. */
  before?: string;
  /** Entries seen at most this many times. */
  maxCount?: number;
}

const toEntry = (r: NotFoundTable): NotFoundEntry => ({
  id: r.id,
  path: r.path,
  referrer: r.referrer || null,
  count: Number(r.count),
  firstSeen: r.first_seen,
  lastSeen: r.last_seen,
});

/** Where a visitor came from, without its query (privacy, cardinality); '' when absent or unusable. */
export function loggedReferrer(raw: string | undefined): string {
  if (!raw) return '';
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    const v = `${url.origin}${url.pathname}`;
    return isStorableText(v) ? v.slice(0, MAX_LOGGED_REFERRER) : '';
  } catch {
    return '';
  }
}

/**
 * The 404 log: one row per (path, referrer) with a count and first/last seen.
 * Misses are gathered in memory and written in batches; the table never holds
 * more than `limit` rows: past it, the least-seen, oldest rows are evicted and
 * their hits added to an `evictedHits` total, so a scanner requesting random
 * paths cannot fill the disk and the totals stay honest.
 */
export function notFoundLog(ctx: ServiceContext, limit: number) {
  const db = ctx.db;
  let pending = new Map<string, { path: string; referrer: string; count: number; first: string; last: string }>();
  let overflow = 0;
  let flushing: Promise<void> | null = null;

  function record(path: string, referrer: string, at: string): void {
    const p = path.slice(0, MAX_LOGGED_PATH);
    if (!isStorableText(p)) return;
    const key = `${p}\u0000${referrer}`;
    const entry = pending.get(key);
    if (entry) {
      entry.count++;
      entry.last = at;
    } else if (pending.size < MAX_PENDING) {
      pending.set(key, { path: p, referrer, count: 1, first: at, last: at });
    } else overflow++;
    if (pending.size >= MAX_PENDING && !flushing)
      void flush().catch((err) => ctx.log.error({ err }, '404 log flush failed'));
  }

  /** Atomic on both engines, so two processes flushing at once never lose a count. */
  async function addEvicted(trx: Kdb, n: number): Promise<void> {
    if (n <= 0) return;
    await trx
      .updateTable('_cms_meta')
      .set({ value: sql<string>`cast(cast(value as bigint) + ${n} as text)` })
      .where('key', '=', EVICTED_KEY)
      .execute();
  }

  /** Keep at most `limit` rows: evict the least-seen, oldest first. */
  async function enforceCap(trx: Kdb): Promise<void> {
    const total = Number(
      (
        await trx
          .selectFrom('_cms_not_found')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const excess = total - limit;
    if (excess <= 0) return;
    const victims = await trx
      .selectFrom('_cms_not_found')
      .select(['id', 'count'])
      .orderBy('count')
      .orderBy('last_seen')
      .orderBy('id')
      .limit(excess)
      .execute();
    for (let i = 0; i < victims.length; i += 500) {
      const chunk = victims.slice(i, i + 500);
      await trx
        .deleteFrom('_cms_not_found')
        .where(
          'id',
          'in',
          chunk.map((v) => v.id),
        )
        .execute();
    }
    await addEvicted(
      trx,
      victims.reduce((s, v) => s + Number(v.count), 0),
    );
  }

  async function writeBatch(): Promise<void> {
    const batch = [...pending.values()];
    const dropped = overflow;
    pending = new Map();
    overflow = 0;
    if (!batch.length && !dropped) return;
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < batch.length; i += 200) {
        await trx
          .insertInto('_cms_not_found')
          .values(
            batch.slice(i, i + 200).map((e) => ({
              id: newId(),
              path: e.path,
              referrer: e.referrer,
              count: e.count,
              first_seen: e.first,
              last_seen: e.last,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['path', 'referrer']).doUpdateSet((eb) => ({
              count: eb('_cms_not_found.count', '+', eb.ref('excluded.count')),
              last_seen: eb.ref('excluded.last_seen'),
            })),
          )
          .execute();
      }
      await addEvicted(trx, dropped);
      await enforceCap(trx);
    });
  }

  /** Write what was gathered (one flush at a time; a caller waits for the running one, then its own). */
  async function flush(): Promise<void> {
    while (flushing) await flushing;
    flushing = writeBatch().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  async function list(
    actor: Actor,
    query: { cursor?: string; limit?: number; sort?: 'recent' | 'count'; path?: string },
  ): Promise<{ items: NotFoundEntry[]; nextCursor?: string }> {
    requirePermission(actor, 'redirects:manage');
    const n = query.limit ?? 50;
    let q = db.selectFrom('_cms_not_found').selectAll();
    if (query.path) q = q.where('path', '=', query.path);
    if (query.sort === 'count') {
      if (query.cursor) {
        const [count, last, id] = decodeCursor(query.cursor, [cursorInteger, cursorText, cursorText]);
        q = q.where((eb) =>
          eb.or([
            eb('count', '<', count),
            eb.and([eb('count', '=', count), eb('last_seen', '<', last)]),
            eb.and([eb('count', '=', count), eb('last_seen', '=', last), eb('id', '<', id)]),
          ]),
        );
      }
      q = q.orderBy('count', 'desc').orderBy('last_seen', 'desc').orderBy('id', 'desc');
    } else {
      if (query.cursor) {
        const [last, id] = decodeCursor(query.cursor, [cursorText, cursorText]);
        q = q.where((eb) =>
          eb.or([eb('last_seen', '<', last), eb.and([eb('last_seen', '=', last), eb('id', '<', id)])]),
        );
      }
      q = q.orderBy('last_seen', 'desc').orderBy('id', 'desc');
    }
    const rows = await q.limit(n + 1).execute();
    const page = rows.slice(0, n);
    const lastRow = page[page.length - 1];
    const cursor =
      rows.length > n && lastRow
        ? query.sort === 'count'
          ? encodeCursor([Number(lastRow.count), lastRow.last_seen, lastRow.id])
          : encodeCursor([lastRow.last_seen, lastRow.id])
        : undefined;
    return { items: page.map(toEntry), ...(cursor ? { nextCursor: cursor } : {}) };
  }

  /**
   * Grouped by path, most-missed first. The table is capped, so the grouping
   * reads a bounded number of rows; pages continue after (count, path).
   */
  async function summary(
    actor: Actor,
    query: { cursor?: string; limit?: number },
  ): Promise<{ items: NotFoundGroup[]; nextCursor?: string; totalHits: number; evictedHits: number; entries: number }> {
    requirePermission(actor, 'redirects:manage');
    const n = query.limit ?? 50;
    const grouped = db
      .selectFrom('_cms_not_found')
      .select((eb) => [
        'path',
        eb.fn.sum<number>('count').as('total'),
        eb.fn.countAll<number>().as('referrers'),
        eb.fn.min('first_seen').as('first_seen'),
        eb.fn.max('last_seen').as('last_seen'),
      ])
      .groupBy('path');
    let q = db.selectFrom(grouped.as('g')).selectAll();
    if (query.cursor) {
      const [total, path] = decodeCursor(query.cursor, [cursorInteger, cursorText]);
      q = q.where((eb) => eb.or([eb('total', '<', total), eb.and([eb('total', '=', total), eb('path', '>', path)])]));
    }
    const rows = await q
      .orderBy('total', 'desc')
      .orderBy('path')
      .limit(n + 1)
      .execute();
    const page = rows.slice(0, n);
    const last = page[page.length - 1];
    const totals = await db
      .selectFrom('_cms_not_found')
      .select((eb) => [eb.fn.sum<number>('count').as('hits'), eb.fn.countAll<number>().as('rows')])
      .executeTakeFirstOrThrow();
    const evicted = await db.selectFrom('_cms_meta').select('value').where('key', '=', EVICTED_KEY).executeTakeFirst();
    return {
      items: page.map((r) => ({
        path: r.path,
        count: Number(r.total),
        referrers: Number(r.referrers),
        firstSeen: String(r.first_seen),
        lastSeen: String(r.last_seen),
      })),
      ...(rows.length > n && last ? { nextCursor: encodeCursor([Number(last.total), last.path]) } : {}),
      totalHits: Number(totals.hits ?? 0),
      evictedHits: Number(evicted?.value ?? 0),
      entries: Number(totals.rows),
    };
  }

  /** Remove the entries the selection names (every given criterion must hold); rules are never touched. */
  async function prune(actor: Actor, sel: PruneSelection): Promise<{ deleted: number }> {
    requirePermission(actor, 'redirects:manage');
    if (!sel.ids?.length && !sel.paths?.length && sel.before === undefined && sel.maxCount === undefined) {
      throw validationError('Select entries to prune: ids, paths, before or maxCount', {
        issues: [{ path: [], code: 'empty_selection', message: 'give at least one of ids, paths, before, maxCount' }],
      });
    }
    await flush();
    let q = db.deleteFrom('_cms_not_found');
    if (sel.ids?.length) q = q.where('id', 'in', sel.ids);
    if (sel.paths?.length) q = q.where('path', 'in', sel.paths);
    if (sel.before !== undefined) q = q.where('last_seen', '<', sel.before);
    if (sel.maxCount !== undefined) q = q.where('count', '<=', sel.maxCount);
    const res = await q.executeTakeFirst();
    return { deleted: Number(res.numDeletedRows) };
  }

  /** Empty the log (and its evicted total); rules are never touched. */
  async function clear(actor: Actor): Promise<{ deleted: number }> {
    requirePermission(actor, 'redirects:manage');
    await flush();
    return db.transaction().execute(async (trx) => {
      const res = await trx.deleteFrom('_cms_not_found').executeTakeFirst();
      await trx.updateTable('_cms_meta').set({ value: '0' }).where('key', '=', EVICTED_KEY).execute();
      return { deleted: Number(res.numDeletedRows) };
    });
  }

  return { record, flush, list, summary, prune, clear, now: () => isoNow(ctx.clock) };
}

export type NotFoundLog = ReturnType<typeof notFoundLog>;

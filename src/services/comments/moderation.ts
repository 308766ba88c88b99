import { type Actor, requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { notFound, validationError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import { type EntryFacts, entryFacts } from './entries.js';
import { type AdminComment, type BulkAction, COMMENT_STATUSES, type CommentStatus, LIMITS } from './model.js';
import { adminComment, type CommentRow } from './present.js';

export interface AdminListQuery {
  status?: CommentStatus;
  collection?: string;
  contentId?: string;
  cursor?: string;
  limit?: number;
}

export type CommentCounts = Record<CommentStatus, number> & { total: number };

const STATUS_OF: Record<Exclude<BulkAction, 'delete'>, CommentStatus> = {
  approve: 'approved',
  spam: 'spam',
  trash: 'trash',
};

/**
 * Moderation (Editors: `comments:moderate`): the queue with status filters,
 * counts, one comment, status changes, bulk actions and permanent deletion.
 * Permanently deleting a top-level comment deletes its replies with it.
 */
export function moderationOps(ctx: ServiceContext, schema: SchemaService) {
  const db = ctx.db;

  /** Entries named by a page of comments, one statement per collection. */
  async function entriesOf(rows: CommentRow[]): Promise<Map<string, EntryFacts>> {
    const snap = await schema.snapshot();
    const byCollection = new Map<string, string[]>();
    for (const r of rows) byCollection.set(r.collection, [...(byCollection.get(r.collection) ?? []), r.entry_id]);
    const out = new Map<string, EntryFacts>();
    for (const [slug, ids] of byCollection) {
      const c = snap.collections.get(slug);
      if (!c) continue;
      for (const [id, facts] of await entryFacts(db, c, ids)) out.set(`${slug}/${id}`, facts);
    }
    return out;
  }

  async function present(rows: CommentRow[]): Promise<AdminComment[]> {
    const entries = await entriesOf(rows);
    return rows.map((r) => adminComment(r, entries.get(`${r.collection}/${r.entry_id}`)));
  }

  async function list(actor: Actor, query: AdminListQuery): Promise<{ items: AdminComment[]; nextCursor?: string }> {
    requirePermission(actor, 'comments:moderate');
    const limit = query.limit ?? 50;
    let q = db.selectFrom('_cms_comments').selectAll();
    if (query.status) q = q.where('status', '=', query.status);
    if (query.collection) q = q.where('collection', '=', query.collection);
    if (query.contentId) q = q.where('entry_id', '=', query.contentId);
    if (query.cursor) {
      const [at, id] = decodeCursor(query.cursor, [cursorText, cursorText]);
      q = q.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
    }
    const rows = await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await present(page),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.created_at, last.id]) } : {}),
    };
  }

  async function counts(actor: Actor, query: { collection?: string } = {}): Promise<CommentCounts> {
    requirePermission(actor, 'comments:moderate');
    let q = db
      .selectFrom('_cms_comments')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status');
    if (query.collection) q = q.where('collection', '=', query.collection);
    const out = { pending: 0, approved: 0, spam: 0, trash: 0, total: 0 } as CommentCounts;
    for (const r of await q.execute()) {
      if ((COMMENT_STATUSES as readonly string[]).includes(r.status)) out[r.status as CommentStatus] = Number(r.n);
      out.total += Number(r.n);
    }
    return out;
  }

  async function row(id: string, trx: Kdb = db): Promise<CommentRow> {
    const r = await trx.selectFrom('_cms_comments').selectAll().where('id', '=', id).executeTakeFirst();
    if (!r) throw notFound('Comment');
    return r;
  }

  async function get(actor: Actor, id: string): Promise<AdminComment> {
    requirePermission(actor, 'comments:moderate');
    return (await present([await row(id)]))[0];
  }

  async function setStatus(actor: Actor, id: string, status: CommentStatus): Promise<AdminComment> {
    requirePermission(actor, 'comments:moderate');
    await row(id);
    const now = isoNow(ctx.clock);
    await db
      .updateTable('_cms_comments')
      .set({ status, updated_at: now, moderated_at: now, moderated_by: actor.userId })
      .where('id', '=', id)
      .execute();
    return get(actor, id);
  }

  /** Delete comments and the replies of those that start a thread. */
  async function deleteWithReplies(trx: Kdb, ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const res = await trx
      .deleteFrom('_cms_comments')
      .where((eb) => eb.or([eb('id', 'in', ids), eb('root_id', 'in', ids)]))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async function remove(actor: Actor, id: string): Promise<{ deleted: true; id: string; count: number }> {
    requirePermission(actor, 'comments:moderate');
    return db.transaction().execute(async (trx) => {
      await row(id, trx);
      return { deleted: true as const, id, count: await deleteWithReplies(trx, [id]) };
    });
  }

  /** One transaction: every listed comment changes, or none (an unknown ID is reported, not fatal). */
  async function bulk(actor: Actor, action: BulkAction, ids: string[]) {
    requirePermission(actor, 'comments:moderate');
    const unique = [...new Set(ids)];
    if (!unique.length || unique.length > LIMITS.bulk) {
      throw validationError(`ids must list 1 to ${LIMITS.bulk} comments`, {
        issues: [{ path: ['ids'], code: 'invalid_length', message: `1 to ${LIMITS.bulk} IDs` }],
      });
    }
    return db.transaction().execute(async (trx) => {
      const found = new Set(
        (await trx.selectFrom('_cms_comments').select('id').where('id', 'in', unique).execute()).map((r) => r.id),
      );
      const present = unique.filter((id) => found.has(id));
      let affected = 0;
      if (action === 'delete') affected = await deleteWithReplies(trx, present);
      else if (present.length) {
        const now = isoNow(ctx.clock);
        const res = await trx
          .updateTable('_cms_comments')
          .set({ status: STATUS_OF[action], updated_at: now, moderated_at: now, moderated_by: actor.userId })
          .where('id', 'in', present)
          .executeTakeFirst();
        affected = Number(res.numUpdatedRows);
      }
      return {
        action,
        affected,
        results: unique.map((id) => ({ id, ok: found.has(id), ...(found.has(id) ? {} : { error: 'NOT_FOUND' }) })),
      };
    });
  }

  return { list, counts, get, setStatus, remove, bulk };
}

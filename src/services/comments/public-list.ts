import { sql } from 'kysely';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { issuesError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { SchemaService } from '../schema/index.js';
import { publishedEntry } from './entries.js';
import { LIMITS, type PublicComment, type PublicThread } from './model.js';
import { type CommentRow, publicComment } from './present.js';

export interface PublicListQuery {
  cursor?: string;
  limit?: number;
  order?: 'asc' | 'desc';
  /** A top-level comment: list its replies instead of the threads. */
  thread?: string;
}

type ReplyRow = CommentRow & { reply_to_name: string | null; rn?: number };

/**
 * The public comments of a published entry (spec: listPublicComments):
 * approved only, threads of a top-level comment and its replies. A page holds
 * up to `limit` threads, each with its first replies; `thread` pages through
 * the rest of one thread. Every statement runs over an index.
 */
export function publicListOps(db: Kdb, schema: SchemaService) {
  const inReplyTo = (r: ReplyRow) =>
    r.parent_id && r.parent_id !== r.root_id && r.reply_to_name !== null
      ? { id: r.parent_id, authorName: r.reply_to_name }
      : null;

  /** Replies with the name of the comment they answer (when it is approved). */
  function replies() {
    return db
      .selectFrom('_cms_comments as c')
      .leftJoin('_cms_comments as p', (j) => j.onRef('p.id', '=', 'c.parent_id').on('p.status', '=', 'approved'))
      .selectAll('c')
      .select('p.author_name as reply_to_name')
      .where('c.status', '=', 'approved')
      .where('c.parent_id', 'is not', null);
  }

  async function total(entryId: string): Promise<number> {
    const row = await db
      .selectFrom('_cms_comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('entry_id', '=', entryId)
      .where('status', '=', 'approved')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function listThread(entryId: string, rootId: string, limit: number, cursor?: string) {
    const root = await db
      .selectFrom('_cms_comments')
      .select(['id', 'entry_id', 'status', 'parent_id'])
      .where('id', '=', rootId)
      .executeTakeFirst();
    if (!root || root.entry_id !== entryId || root.status !== 'approved' || root.parent_id !== null) {
      throw issuesError('Unknown thread', [
        { path: ['thread'], code: 'unknown_thread', message: 'must be an approved top-level comment of this entry' },
      ]);
    }
    let q = replies().where('c.root_id', '=', rootId);
    if (cursor) {
      const [at, id] = decodeCursor(cursor, [cursorText, cursorText]);
      q = q.where((eb) =>
        eb.or([eb('c.created_at', '>', at), eb.and([eb('c.created_at', '=', at), eb('c.id', '>', id)])]),
      );
    }
    const rows = (await q
      .orderBy('c.created_at')
      .orderBy('c.id')
      .limit(limit + 1)
      .execute()) as ReplyRow[];
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => publicComment(r, inReplyTo(r))),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.created_at, last.id]) } : {}),
    };
  }

  async function list(
    collection: string,
    contentId: string,
    query: PublicListQuery,
  ): Promise<{ items: Array<PublicThread | PublicComment>; nextCursor?: string; total: number }> {
    const { entry } = await publishedEntry(db, schema, collection, contentId);
    const limit = query.limit ?? 50;
    if (query.thread) {
      const page = await listThread(entry.id, query.thread, limit, query.cursor);
      return { ...page, total: await total(entry.id) };
    }
    const desc = query.order === 'desc';
    let q = db
      .selectFrom('_cms_comments')
      .selectAll()
      .where('entry_id', '=', entry.id)
      .where('status', '=', 'approved')
      .where('parent_id', 'is', null);
    if (query.cursor) {
      const [at, id] = decodeCursor(query.cursor, [cursorText, cursorText]);
      const op = desc ? '<' : '>';
      q = q.where((eb) => eb.or([eb('created_at', op, at), eb.and([eb('created_at', '=', at), eb('id', op, id)])]));
    }
    const dir = desc ? 'desc' : 'asc';
    const rows = await q
      .orderBy('created_at', dir)
      .orderBy('id', dir)
      .limit(limit + 1)
      .execute();
    const roots = rows.slice(0, limit);
    const rootIds = roots.map((r) => r.id);

    const previews = new Map<string, ReplyRow[]>();
    const counts = new Map<string, number>();
    if (rootIds.length) {
      // First replies of every thread on the page in one statement (a window over the thread index).
      const ranked = replies()
        .where('c.root_id', 'in', rootIds)
        .select(sql<number>`row_number() over (partition by c.root_id order by c.created_at, c.id)`.as('rn'));
      const previewRows = (await db
        .selectFrom(ranked.as('r'))
        .selectAll()
        .where('rn', '<=', LIMITS.repliesPreview)
        .orderBy('created_at')
        .orderBy('id')
        .execute()) as unknown as ReplyRow[];
      for (const r of previewRows) {
        const list = previews.get(r.root_id) ?? [];
        list.push(r);
        previews.set(r.root_id, list);
      }
      const countRows = await db
        .selectFrom('_cms_comments')
        .select(['root_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('root_id', 'in', rootIds)
        .where('status', '=', 'approved')
        .where('parent_id', 'is not', null)
        .groupBy('root_id')
        .execute();
      for (const r of countRows) counts.set(r.root_id, Number(r.n));
    }
    const last = roots[roots.length - 1];
    return {
      items: roots.map((r) => {
        const shown = previews.get(r.id) ?? [];
        const replyCount = counts.get(r.id) ?? 0;
        const tail = shown[shown.length - 1];
        return {
          ...publicComment(r, null),
          replies: shown.map((x) => publicComment(x, inReplyTo(x))),
          replyCount,
          ...(replyCount > shown.length && tail ? { repliesCursor: encodeCursor([tail.created_at, tail.id]) } : {}),
        };
      }),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.created_at, last.id]) } : {}),
      total: await total(entry.id),
    };
  }

  return { list };
}

import type { CommentsTable } from '../../db/tables-public.js';
import type { EntryFacts } from './entries.js';
import type { AdminComment, CommentStatus, PublicComment } from './model.js';

export type CommentRow = CommentsTable;

export function publicComment(r: CommentRow, inReplyTo: { id: string; authorName: string } | null): PublicComment {
  return {
    id: r.id,
    parentId: r.parent_id,
    inReplyTo,
    authorName: r.author_name,
    authorUrl: r.author_url,
    body: r.body,
    createdAt: r.created_at,
  };
}

export function adminComment(r: CommentRow, entry: EntryFacts | undefined): AdminComment {
  return {
    id: r.id,
    collection: r.collection,
    contentId: r.entry_id,
    entry: entry ? { slug: entry.slug, title: entry.title, status: entry.trashed ? 'trashed' : entry.status } : null,
    rootId: r.root_id,
    parentId: r.parent_id,
    status: r.status as CommentStatus,
    authorName: r.author_name,
    authorEmail: r.author_email,
    authorUrl: r.author_url,
    userId: r.user_id,
    body: r.body,
    spamReasons: r.spam_reasons ? (JSON.parse(r.spam_reasons) as string[]) : [],
    userAgent: r.user_agent,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    moderatedAt: r.moderated_at,
    moderatedBy: r.moderated_by,
  };
}

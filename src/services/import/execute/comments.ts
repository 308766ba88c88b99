import { DomUtils, parseDocument } from 'htmlparser2';
import { newId } from '../../../core/ids.js';
import type { CommentsTable } from '../../../db/tables-public.js';
import { LIMITS } from '../../comments/model.js';
import { normaliseAuthorUrl, normaliseText, storedText } from '../../comments/text.js';
import type { WxrComment } from '../wxr/model.js';

/**
 * Comments of an imported entry, with their threads: source comment IDs are
 * mapped to new IDs within the item, so replies keep their parent and their
 * thread's top-level comment. Pingbacks and trackbacks are comments of another
 * kind and are left out (counted as skipped).
 */

export function commentStatus(approved: string): CommentsTable['status'] {
  if (approved === '1' || approved === 'approve') return 'approved';
  if (approved === 'spam') return 'spam';
  if (approved === 'trash' || approved === 'post-trashed') return 'trash';
  return 'pending';
}

/** Comment HTML to the plain text comments store: paragraphs and line breaks kept, markup dropped. */
export function plainText(html: string): string {
  const withBreaks = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>\s*/gi, '\n\n');
  return DomUtils.textContent(parseDocument(withBreaks));
}

export function commentDate(c: WxrComment, fallback: string): string {
  for (const raw of [c.dateGmt, c.date]) {
    if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(raw) && !raw.startsWith('0000')) {
      const d = new Date(`${raw.replace(' ', 'T')}Z`);
      if (!Number.isNaN(d.getTime())) return d.toISOString();
    }
  }
  return fallback;
}

/** What an imported comment carries, from an export file or from the exporter plugin. */
export type SourceComment = Pick<
  WxrComment,
  'approved' | 'author' | 'authorEmail' | 'authorUrl' | 'userId' | 'content'
>;

/**
 * The stored row of one imported comment: text normalised and cut to the comment limits as a
 * submission would be, HTML reduced to plain text, an author URL that is not a safe link dropped.
 */
export function importedComment(
  c: SourceComment,
  place: {
    id: string;
    collection: string;
    entryId: string;
    rootId: string;
    parentId: string | null;
    at: string;
    userIds: ReadonlyMap<string, string>;
  },
): CommentsTable {
  return {
    id: place.id,
    collection: place.collection,
    entry_id: place.entryId,
    root_id: place.rootId,
    parent_id: place.parentId,
    status: commentStatus(c.approved),
    author_name: normaliseText(c.author, false).slice(0, LIMITS.authorName) || 'Anonymous',
    author_email: c.authorEmail.trim().slice(0, LIMITS.authorEmail) || null,
    author_url: normaliseAuthorUrl(c.authorUrl.slice(0, LIMITS.authorUrl)),
    user_id: (c.userId && place.userIds.get(c.userId)) || null,
    body: storedText(normaliseText(plainText(c.content), true).slice(0, LIMITS.body) || '…'),
    spam_reasons: null,
    client_key: null,
    user_agent: null,
    created_at: place.at,
    updated_at: place.at,
    moderated_at: null,
    moderated_by: null,
  };
}

export interface CommentRows {
  rows: CommentsTable[];
  skipped: number;
}

export function commentRows(
  comments: WxrComment[],
  collection: string,
  entryId: string,
  fallbackDate: string,
  userIds: ReadonlyMap<string, string>,
): CommentRows {
  const kept = comments.filter((c) => !c.type || c.type === 'comment');
  const ids = new Map(kept.map((c) => [c.id, newId()]));
  const parentOf = new Map(kept.map((c) => [c.id, c.parent && ids.has(c.parent) ? c.parent : null]));
  const rootOf = (id: string): string => {
    let cur = id;
    for (let hops = 0; hops < 1000; hops++) {
      const p = parentOf.get(cur);
      if (!p) break;
      cur = p;
    }
    return cur;
  };
  const rows = kept.map((c): CommentsTable => {
    const parent = parentOf.get(c.id) ?? null;
    return importedComment(c, {
      id: ids.get(c.id) as string,
      collection,
      entryId,
      rootId: ids.get(rootOf(c.id)) as string,
      parentId: parent ? (ids.get(parent) as string) : null,
      at: commentDate(c, fallbackDate),
      userIds,
    });
  });
  return { rows, skipped: comments.length - kept.length };
}

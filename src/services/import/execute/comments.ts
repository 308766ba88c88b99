import { DomUtils, parseDocument } from 'htmlparser2';
import { newId } from '../../../core/ids.js';
import type { CommentsTable } from '../../../db/tables-public.js';
import { LIMITS } from '../../comments/model.js';
import { type CommentText, checkCommentText, storedText } from '../../comments/text.js';
import { isPingback } from '../post-types.js';
import type { WxrComment } from '../wxr/model.js';

/**
 * Comments of an imported entry, with their threads: source comment IDs are
 * mapped to new IDs within the item, so replies keep their parent and their
 * thread's top-level comment. Pingbacks and trackbacks are comments of another
 * kind and are left out (counted as skipped, reason `pingback`).
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

/** An imported comment's text after the comment rules, and what they changed (reported counts). */
export type CheckedComment = { text: CommentText; changed: string[] } | { reason: string };

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The comment rules a submission follows (comments/text.ts, checkCommentText)
 * applied to an imported comment. Its HTML becomes the plain text comments
 * store; an empty author name is "Anonymous" (WordPress allows one). Text the
 * rules refuse (empty, longer than a submission may be) skips the comment with
 * the reason `<field>_<code>` (`body_too_big` …); an author link that is not
 * an absolute http(s) address is dropped (`author_url_dropped`), the comment kept.
 */
export function checkImportedComment(c: SourceComment): CheckedComment {
  const checked = checkCommentText({
    body: plainText(c.content),
    authorName: c.author.trim() || 'Anonymous',
    authorUrl: c.authorUrl,
  });
  const refused = checked.issues.find((i) => i.path[0] !== 'authorUrl');
  if (refused) return { reason: `${snake(String(refused.path[0]))}_${refused.code}` };
  return { text: checked.value, changed: checked.issues.length ? ['author_url_dropped'] : [] };
}

/** The stored row of one imported comment whose text passed checkImportedComment, escaped as a submission is. */
export function importedComment(
  c: SourceComment,
  text: CommentText,
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
  const email = c.authorEmail.trim().toLowerCase();
  return {
    id: place.id,
    collection: place.collection,
    entry_id: place.entryId,
    root_id: place.rootId,
    parent_id: place.parentId,
    status: commentStatus(c.approved),
    author_name: storedText(text.authorName),
    author_email: email && email.length <= LIMITS.authorEmail ? email : null,
    author_url: text.authorUrl,
    user_id: (c.userId && place.userIds.get(c.userId)) || null,
    body: storedText(text.body),
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
  /** Comments left out, by reason (`pingback`, `body_too_big` …). */
  skipped: Record<string, number>;
  /** Comments kept with a change, by kind (`author_url_dropped`). */
  changed: Record<string, number>;
}

const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};

export function commentRows(
  comments: WxrComment[],
  collection: string,
  entryId: string,
  fallbackDate: string,
  userIds: ReadonlyMap<string, string>,
): CommentRows {
  const skipped: Record<string, number> = {};
  const changed: Record<string, number> = {};
  // Checked first: a reply to a comment left out joins its thread's nearest kept ancestor, or starts a thread.
  const kept: Array<{ c: WxrComment; text: CommentText }> = [];
  for (const c of comments) {
    if (isPingback(c.type)) {
      bump(skipped, 'pingback');
      continue;
    }
    const checked = checkImportedComment(c);
    if ('reason' in checked) {
      bump(skipped, checked.reason);
      continue;
    }
    for (const k of checked.changed) bump(changed, k);
    kept.push({ c, text: checked.text });
  }
  const ids = new Map(kept.map(({ c }) => [c.id, newId()]));
  const sourceParent = new Map(comments.map((c) => [c.id, c.parent]));
  /** The nearest kept ancestor (source ID), or null. */
  const keptParent = (c: WxrComment): string | null => {
    let p = c.parent;
    for (let hops = 0; p && hops < 1000; hops++) {
      if (ids.has(p)) return p === c.id ? null : p;
      p = sourceParent.get(p) ?? '';
    }
    return null;
  };
  const parentOf = new Map(kept.map(({ c }) => [c.id, keptParent(c)]));
  const rootOf = (id: string): string => {
    let cur = id;
    for (let hops = 0; hops < 1000; hops++) {
      const p = parentOf.get(cur);
      if (!p) break;
      cur = p;
    }
    return cur;
  };
  const rows = kept.map(({ c, text }): CommentsTable => {
    const parent = parentOf.get(c.id) ?? null;
    return importedComment(c, text, {
      id: ids.get(c.id) as string,
      collection,
      entryId,
      rootId: ids.get(rootOf(c.id)) as string,
      parentId: parent ? (ids.get(parent) as string) : null,
      at: commentDate(c, fallbackDate),
      userIds,
    });
  });
  return { rows, skipped, changed };
}

/** Shapes and limits of the comments domain. */

export const COMMENT_STATUSES = ['pending', 'approved', 'spam', 'trash'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

export const BULK_ACTIONS = ['approve', 'spam', 'trash', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const LIMITS = {
  /** Characters of the comment text (after trimming), before escaping. */
  body: 5000,
  authorName: 100,
  authorEmail: 254,
  authorUrl: 500,
  userAgent: 300,
  /** Replies shown under each top-level comment of a public page; the rest through `thread`. */
  repliesPreview: 10,
  /** IDs in one bulk request. */
  bulk: 100,
  /** JSON body of a public submission, in bytes. */
  submitBody: 16 * 1024,
} as const;

/** What a site shows: no email, no moderation details. Text fields are HTML-escaped. */
export interface PublicComment {
  id: string;
  parentId: string | null;
  /** The comment replied to when it is not the thread's top-level comment (and is approved). */
  inReplyTo: { id: string; authorName: string } | null;
  authorName: string;
  authorUrl: string | null;
  body: string;
  createdAt: string;
}

export interface PublicThread extends PublicComment {
  replies: PublicComment[];
  replyCount: number;
  /** Pass as `cursor` with `thread=<id>` to read the replies after the preview. */
  repliesCursor?: string;
}

/** What moderators see. */
export interface AdminComment {
  id: string;
  collection: string;
  contentId: string;
  entry: { slug: string | null; title: string | null; status: string } | null;
  rootId: string;
  parentId: string | null;
  status: CommentStatus;
  authorName: string;
  authorEmail: string | null;
  authorUrl: string | null;
  userId: string | null;
  body: string;
  spamReasons: string[];
  userAgent: string | null;
  createdAt: string;
  updatedAt: string;
  moderatedAt: string | null;
  moderatedBy: string | null;
}

export interface SubmitInput {
  authorName?: string;
  authorEmail?: string;
  authorUrl?: string;
  body: string;
  parentId?: string;
  /** A field real people never fill (hidden on the form); filled means spam. */
  honeypot?: string;
}

export type { RequestFacts } from '../auth/client-ip.js';

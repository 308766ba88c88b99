import { z } from '@hono/zod-openapi';
import { BULK_ACTIONS, COMMENT_STATUSES, LIMITS } from '../services/comments/model.js';
import { SlugParam } from './common.js';
import { safeString } from './safe-text.js';

/** Request and response shapes of the comments API (public and moderation). */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
const Status = z.enum(COMMENT_STATUSES);
const Id = z.string().min(1).max(64);

const limitParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(100)
  .optional()
  .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer', description: '1 to 100, default 50' });
const cursorParam = z
  .string()
  .max(2000)
  .optional()
  .openapi({ param: { name: 'cursor', in: 'query' }, description: 'nextCursor of the previous page, unchanged' });

export const CommentEntryParams = z.object({
  collection: SlugParam.openapi({ param: { name: 'collection', in: 'path' } }),
  contentId: Id.openapi({ param: { name: 'contentId', in: 'path' }, description: 'Database ID of the entry' }),
});

export const CommentIdParams = z.object({ id: Id.openapi({ param: { name: 'id', in: 'path' } }) });

const escapedNote = 'HTML-escaped plain text (safe to insert as HTML); line breaks are "\\n"';

export const PublicCommentSchema = z
  .object({
    id: z.string(),
    parentId: z.string().nullable().openapi({ description: 'The comment replied to; null at the top of a thread' }),
    inReplyTo: z
      .object({ id: z.string(), authorName: z.string() })
      .nullable()
      .openapi({ description: 'Set on a reply to a reply (when that comment is approved)' }),
    authorName: z.string().openapi({ description: 'HTML-escaped' }),
    authorUrl: z.string().nullable(),
    body: z.string().openapi({ description: escapedNote }),
    createdAt: Instant,
  })
  .openapi('PublicComment');

export const PublicThreadSchema = PublicCommentSchema.extend({
  replies: z
    .array(PublicCommentSchema)
    .openapi({ description: `The first ${LIMITS.repliesPreview} replies, oldest first` }),
  replyCount: z.number().int(),
  repliesCursor: z
    .string()
    .optional()
    .openapi({ description: 'More replies: list again with thread=<id> and cursor=<repliesCursor>' }),
}).openapi('PublicCommentThread');

export const PublicCommentList = z
  .object({
    items: z.array(z.union([PublicThreadSchema, PublicCommentSchema])).openapi({
      description: 'Threads (top-level comments with their first replies), or the replies of one thread with `thread`',
    }),
    nextCursor: z.string().optional(),
    total: z.number().int().openapi({ description: 'Approved comments of the entry, replies included' }),
  })
  .openapi('PublicCommentList');

export const PublicCommentsQuery = z.object({
  cursor: cursorParam,
  limit: limitParam,
  order: z
    .enum(['asc', 'desc'])
    .optional()
    .openapi({
      param: { name: 'order', in: 'query' },
      description: 'Threads oldest first (asc, default) or newest first',
    }),
  thread: Id.optional().openapi({
    param: { name: 'thread', in: 'query' },
    description: 'ID of a top-level comment: list its replies (oldest first) instead of the threads',
  }),
});

const text = (max: number) =>
  safeString()
    .max(max * 2)
    .openapi({ description: `At most ${max} characters after trimming` });

export const CreateCommentBody = z
  .object({
    authorName: text(LIMITS.authorName)
      .optional()
      .openapi({ description: 'Required unless signed in (then defaults to the user name)' }),
    authorEmail: z.email().max(LIMITS.authorEmail).optional().openapi({ description: 'Never shown publicly' }),
    authorUrl: safeString().max(LIMITS.authorUrl).optional().openapi({ description: 'An http(s) address' }),
    body: text(LIMITS.body).openapi({ description: `Plain text, 1 to ${LIMITS.body} characters` }),
    parentId: Id.optional().openapi({ description: 'Reply to this approved comment of the same entry' }),
    honeypot: safeString()
      .max(1000)
      .optional()
      .openapi({ description: 'Leave empty: a form field hidden from people, which bots fill in' }),
  })
  .strict()
  .openapi('CreateCommentRequest');

export const CommentReceipt = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'approved']).openapi({
      description:
        'pending: awaits moderation (also the answer when a spam check tripped); approved: a moderator’s own comment',
    }),
    createdAt: Instant,
  })
  .openapi('CommentReceipt');

export const AdminCommentSchema = z
  .object({
    id: z.string(),
    collection: z.string(),
    contentId: z.string(),
    entry: z
      .object({ slug: z.string().nullable(), title: z.string().nullable(), status: z.string() })
      .nullable()
      .openapi({ description: 'The commented entry; null when it no longer exists' }),
    rootId: z.string(),
    parentId: z.string().nullable(),
    status: Status,
    authorName: z.string().openapi({ description: 'HTML-escaped' }),
    authorEmail: z.string().nullable(),
    authorUrl: z.string().nullable(),
    userId: z.string().nullable(),
    body: z.string().openapi({ description: escapedNote }),
    spamReasons: z.array(z.string()).openapi({ description: 'Heuristics that routed the comment to spam' }),
    userAgent: z.string().nullable(),
    createdAt: Instant,
    updatedAt: Instant,
    moderatedAt: Instant.nullable(),
    moderatedBy: z.string().nullable(),
  })
  .openapi('AdminComment');

export const AdminCommentList = z
  .object({ items: z.array(AdminCommentSchema), nextCursor: z.string().optional() })
  .openapi('AdminCommentList');

export const AdminCommentsQuery = z.object({
  status: Status.optional().openapi({ param: { name: 'status', in: 'query' } }),
  collection: SlugParam.optional().openapi({ param: { name: 'collection', in: 'query' } }),
  contentId: Id.optional().openapi({ param: { name: 'contentId', in: 'query' } }),
  cursor: cursorParam,
  limit: limitParam,
});

export const CommentCountsQuery = z.object({
  collection: SlugParam.optional().openapi({ param: { name: 'collection', in: 'query' } }),
});

export const CommentCountsSchema = z
  .object({
    pending: z.number().int(),
    approved: z.number().int(),
    spam: z.number().int(),
    trash: z.number().int(),
    total: z.number().int(),
  })
  .openapi('CommentCounts');

export const UpdateCommentStatusBody = z.object({ status: Status }).strict().openapi('UpdateCommentStatusRequest');

export const BulkCommentBody = z
  .object({
    action: z.enum(BULK_ACTIONS),
    ids: z.array(Id).min(1).max(LIMITS.bulk),
  })
  .strict()
  .openapi('BulkCommentRequest');

export const BulkCommentResult = z
  .object({
    action: z.enum(BULK_ACTIONS),
    affected: z
      .number()
      .int()
      .openapi({ description: 'Comments changed (deleted: replies of deleted threads included)' }),
    results: z.array(z.object({ id: z.string(), ok: z.boolean(), error: z.string().optional() })),
  })
  .openapi('BulkCommentResult');

export const DeletedComment = z
  .object({ deleted: z.literal(true), id: z.string(), count: z.number().int() })
  .openapi('DeletedComment');

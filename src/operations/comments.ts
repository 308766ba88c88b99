import {
  AdminCommentList,
  AdminCommentSchema,
  AdminCommentsQuery,
  BulkCommentBody,
  BulkCommentResult,
  CommentCountsQuery,
  CommentCountsSchema,
  CommentEntryParams,
  CommentIdParams,
  CommentReceipt,
  CreateCommentBody,
  DeletedComment,
  PublicCommentList,
  PublicCommentsQuery,
  UpdateCommentStatusBody,
} from '../schemas/comments.js';
import { operation } from './operation.js';

/**
 * The comment operations (spec: "Comments" table): two public ones, the rest
 * for moderators. No MCP tool serves them; a token reaches moderation through
 * `content:write`. The rules live in the comments service.
 */
const MODERATES = 'content:write';

/** What the REST door adds to a submission besides its headers: the address the request came from. */
export interface SubmissionTransport {
  socketAddress: string | null;
}

export const listPublicComments = operation({
  id: 'listPublicComments',
  params: CommentEntryParams,
  query: PublicCommentsQuery,
  output: PublicCommentList,
  writes: false,
  // Public: anyone may read the approved comments of a published entry.
  scope: null,
  run: ({ services }, { params, query }) => services.comments.list(params.collection, params.contentId, query),
});

/**
 * A public submission. The client's address counts towards its duplicate
 * check: the request's headers (the trusted proxy headers, the user agent)
 * and the socket address the REST door passes as the query part; a door
 * without them submits without a client address.
 */
export const createComment = operation({
  id: 'createComment',
  params: CommentEntryParams,
  body: CreateCommentBody,
  output: CommentReceipt,
  writes: true,
  scope: null,
  run: ({ services, actor, header }, { params, query, body }) => {
    const transport = query as SubmissionTransport | undefined;
    return services.comments.submit(actor, params.collection, params.contentId, body, {
      socketAddress: transport?.socketAddress ?? null,
      header: (name) => header?.(name),
    });
  },
});

export const getCommentCounts = operation({
  id: 'getCommentCounts',
  query: CommentCountsQuery,
  output: CommentCountsSchema,
  writes: false,
  scope: MODERATES,
  run: ({ services, actor }, { query }) => services.comments.moderation.counts(actor, query),
});

export const bulkCommentAction = operation({
  id: 'bulkCommentAction',
  body: BulkCommentBody,
  output: BulkCommentResult,
  writes: true,
  scope: MODERATES,
  run: ({ services, actor }, { body }) => services.comments.moderation.bulk(actor, body.action, body.ids),
});

export const listAdminComments = operation({
  id: 'listAdminComments',
  query: AdminCommentsQuery,
  output: AdminCommentList,
  writes: false,
  scope: MODERATES,
  run: ({ services, actor }, { query }) => services.comments.moderation.list(actor, query),
});

export const getComment = operation({
  id: 'getComment',
  params: CommentIdParams,
  output: AdminCommentSchema,
  writes: false,
  scope: MODERATES,
  run: ({ services, actor }, { params }) => services.comments.moderation.get(actor, params.id),
});

export const deleteComment = operation({
  id: 'deleteComment',
  params: CommentIdParams,
  output: DeletedComment,
  writes: true,
  scope: MODERATES,
  run: ({ services, actor }, { params }) => services.comments.moderation.remove(actor, params.id),
});

export const updateCommentStatus = operation({
  id: 'updateCommentStatus',
  params: CommentIdParams,
  body: UpdateCommentStatusBody,
  output: AdminCommentSchema,
  writes: true,
  scope: MODERATES,
  run: ({ services, actor }, { params, body }) => services.comments.moderation.setStatus(actor, params.id, body.status),
});

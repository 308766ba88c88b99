import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { CmsError } from '../../core/errors.js';
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
} from '../../schemas/comments.js';
import { LIMITS } from '../../services/comments/index.js';
import type { AppEnv } from '../env.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op } from '../op.js';

function socketAddress(c: Context<AppEnv>): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

const tooLarge = () =>
  new CmsError('PAYLOAD_TOO_LARGE', `A comment submission is at most ${LIMITS.submitBody} bytes`, {
    maxBytes: LIMITS.submitBody,
  });

/**
 * A submission is small: a declared length above the limit is refused before
 * reading; otherwise the body (already bounded by the API's body limits, and
 * cached once read) is measured before it is validated.
 */
const submissionSize: MiddlewareHandler<AppEnv> = async (c, next) => {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > LIMITS.submitBody) throw tooLarge();
  const text = await c.req.text();
  if (Buffer.byteLength(text) > LIMITS.submitBody) throw tooLarge();
  await next();
};

/**
 * Public submissions: the browser-write rule (`X-CMS-Request: 1` or a
 * same-site Origin), the per-IP submission rate limit shared by every process
 * (429), then the small body limit.
 */
function submissionGuards(): MiddlewareHandler<AppEnv> {
  const guards: MiddlewareHandler<AppEnv>[] = [publicWrite(), rateLimit('commentSubmit'), submissionSize];
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const run = async (i: number): Promise<void> => {
      if (i === guards.length) return next();
      await guards[i](c, () => run(i + 1));
    };
    await run(0);
  };
}

/** Routes of the spec's "Comments" table: two public ones, the rest for moderators. */
export function commentRoutes(api: Api): void {
  const tags = ['Comments'];
  api.use('/comments/:collection/:contentId', submissionGuards());

  op(
    api,
    {
      method: 'get',
      path: '/comments/{collection}/{contentId}',
      operationId: 'listPublicComments',
      summary: 'List the approved comments of a published entry (threads with their first replies)',
      tags,
      public: true,
      params: CommentEntryParams,
      query: PublicCommentsQuery,
      response: PublicCommentList,
    },
    async ({ services, params, query }) => services.comments.list(params.collection, params.contentId, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/comments/{collection}/{contentId}',
      operationId: 'createComment',
      errors: { 409: 'Comments are closed on this collection or entry (COMMENTS_CLOSED)' },
      summary: 'Submit a comment on a published entry (enters moderation)',
      description:
        'Public. Browsers must send `X-CMS-Request: 1` or an Origin of this site. At most 5 submissions per minute per client IP (429 with Retry-After).',
      tags,
      public: true,
      params: CommentEntryParams,
      body: CreateCommentBody,
      response: CommentReceipt,
      status: 201,
    },
    async ({ actor, services, params, body, c }) =>
      services.comments.submit(actor, params.collection, params.contentId, body, {
        socketAddress: socketAddress(c),
        header: (name) => c.req.header(name),
      }),
  );

  op(
    api,
    {
      method: 'get',
      path: '/admin/comments/counts',
      operationId: 'getCommentCounts',
      summary: 'Count comments per status',
      tags,
      query: CommentCountsQuery,
      response: CommentCountsSchema,
    },
    async ({ actor, services, query }) => services.comments.moderation.counts(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/comments/bulk',
      operationId: 'bulkCommentAction',
      summary: 'Approve, mark as spam, trash or permanently delete up to 100 comments at once',
      tags,
      body: BulkCommentBody,
      response: BulkCommentResult,
    },
    async ({ actor, services, body }) => services.comments.moderation.bulk(actor, body.action, body.ids),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/comments',
      operationId: 'listAdminComments',
      summary: 'List comments of every status, newest first (moderation queue)',
      tags,
      query: AdminCommentsQuery,
      response: AdminCommentList,
    },
    async ({ actor, services, query }) => services.comments.moderation.list(actor, query),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/comments/{id}',
      operationId: 'getComment',
      summary: 'Get a comment with its moderation details',
      tags,
      params: CommentIdParams,
      response: AdminCommentSchema,
    },
    async ({ actor, services, params }) => services.comments.moderation.get(actor, params.id),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/admin/comments/{id}',
      operationId: 'deleteComment',
      summary: 'Permanently delete a comment (a top-level comment takes its replies with it)',
      tags,
      params: CommentIdParams,
      response: DeletedComment,
    },
    async ({ actor, services, params }) => services.comments.moderation.remove(actor, params.id),
  );
  op(
    api,
    {
      method: 'put',
      path: '/admin/comments/{id}/status',
      operationId: 'updateCommentStatus',
      summary: 'Change the status of a comment (pending, approved, spam, trash)',
      tags,
      params: CommentIdParams,
      body: UpdateCommentStatusBody,
      response: AdminCommentSchema,
    },
    async ({ actor, services, params, body }) => services.comments.moderation.setStatus(actor, params.id, body.status),
  );
}

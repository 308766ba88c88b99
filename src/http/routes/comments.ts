import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { CmsError } from '../../core/errors.js';
import {
  bulkCommentAction,
  createComment,
  deleteComment,
  getComment,
  getCommentCounts,
  listAdminComments,
  listPublicComments,
  type SubmissionTransport,
  updateCommentStatus,
} from '../../operations/comments.js';
import { LIMITS } from '../../services/comments/index.js';
import type { AppEnv } from '../env.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, route } from '../op.js';

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

  route(api, {
    operation: listPublicComments,
    method: 'get',
    path: '/comments/{collection}/{contentId}',
    summary: 'List the approved comments of a published entry (threads with their first replies)',
    tags,
    public: true,
  });
  route(api, {
    operation: createComment,
    method: 'post',
    path: '/comments/{collection}/{contentId}',
    errors: { 409: 'Comments are closed on this collection or entry (COMMENTS_CLOSED)' },
    summary: 'Submit a comment on a published entry (enters moderation)',
    description:
      'Public. Browsers must send `X-CMS-Request: 1` or an Origin of this site. At most 5 submissions per minute per client IP (429 with Retry-After).',
    tags,
    public: true,
    status: 201,
    // The socket address is transport: the operation reads it from the query part (its headers come with the call).
    request: (c, parts) => ({ ...parts, query: { socketAddress: socketAddress(c) } satisfies SubmissionTransport }),
  });

  route(api, {
    operation: getCommentCounts,
    method: 'get',
    path: '/admin/comments/counts',
    summary: 'Count comments per status',
    tags,
  });
  route(api, {
    operation: bulkCommentAction,
    method: 'post',
    path: '/admin/comments/bulk',
    summary: 'Approve, mark as spam, trash or permanently delete up to 100 comments at once',
    tags,
  });
  route(api, {
    operation: listAdminComments,
    method: 'get',
    path: '/admin/comments',
    summary: 'List comments of every status, newest first (moderation queue)',
    tags,
  });
  route(api, {
    operation: getComment,
    method: 'get',
    path: '/admin/comments/{id}',
    summary: 'Get a comment with its moderation details',
    tags,
  });
  route(api, {
    operation: deleteComment,
    method: 'delete',
    path: '/admin/comments/{id}',
    summary: 'Permanently delete a comment (a top-level comment takes its replies with it)',
    tags,
  });
  route(api, {
    operation: updateCommentStatus,
    method: 'put',
    path: '/admin/comments/{id}/status',
    summary: 'Change the status of a comment (pending, approved, spam, trash)',
    tags,
  });
}

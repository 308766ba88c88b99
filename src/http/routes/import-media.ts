import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { isCmsError } from '../../core/errors.js';
import { mediaCopyBodySchema, rewriteUrlsBodySchema } from '../../schemas/import-media.js';
import type { AppEnv } from '../env.js';
import { type Api, op } from '../op.js';

/**
 * The WordPress import's media step (admin import page): copy attachments into
 * the library, then rewrite their old URLs in entries. Outside the OpenAPI
 * contract like the other import routes; same guard (an Admin, and a session
 * must send X-CMS-Request: 1, enforced by the session middleware).
 */

const NDJSON = 'application/x-ndjson; charset=utf-8';

const line = (record: unknown) => `${JSON.stringify(record)}\n`;

/**
 * `stream: true` (default): one progress record per attachment as it finishes,
 * then one `{ type: "result" }` record, outside the envelope. Every check runs
 * before the first byte, so a refusal is a normal error response.
 */
async function copyMedia(c: Context<AppEnv>) {
  const body = (c.req as unknown as { valid(t: 'json'): z.output<typeof mediaCopyBodySchema> }).valid('json');
  const services = c.get('services');
  const actor = c.get('actor');
  const input = { attachments: body.attachments, folderId: body.folderId };
  const run = await services.importMedia.start(actor, input);
  if (!body.stream) return c.json({ success: true, data: await run() }, 200);

  const gone = new AbortController();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (record: unknown) => {
        if (!gone.signal.aborted) controller.enqueue(encoder.encode(line(record)));
      };
      try {
        const result = await run(send, gone.signal);
        send({ type: 'result', ...result });
      } catch (err) {
        // Headers are sent: the failure becomes the last record.
        if (!isCmsError(err)) c.get('log').error({ err }, 'the media copy stopped');
        send({
          type: 'error',
          error: isCmsError(err)
            ? { code: err.code, message: err.message }
            : { code: 'INTERNAL_ERROR', message: 'The media copy stopped' },
        });
      }
      if (!gone.signal.aborted) controller.close();
    },
    cancel() {
      gone.abort();
    },
  });
  return new Response(stream, { status: 200, headers: { 'content-type': NDJSON, 'cache-control': 'no-store' } });
}

/** Register the media copy routes (called from the import routes). */
export function importMediaRoutes(api: Api): void {
  const tags = ['Import'];
  const route = createRoute({
    method: 'post',
    path: '/import/blogplatform/media',
    operationId: 'copyBlogImportMedia',
    summary: 'Copy WordPress attachments into the media library',
    tags,
    hide: true,
    request: { body: { required: true, content: { 'application/json': { schema: mediaCopyBodySchema as never } } } },
    responses: { 200: { description: 'NDJSON progress records and a result record, or the envelope' } },
  });
  api.openapi(route, copyMedia as never);
  op(
    api,
    {
      method: 'post',
      path: '/import/blogplatform/rewrite-urls',
      operationId: 'rewriteBlogImportUrls',
      summary: 'Point entries at the copied media (replace old URLs)',
      tags,
      hidden: true,
      body: rewriteUrlsBodySchema,
      response: z.record(z.string(), z.unknown()),
    },
    async ({ actor, services, body }) =>
      (await services.importMedia.rewriteUrls(actor, body)) as unknown as Record<string, unknown>,
  );
}

import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { CmsError, isCmsError, issuesError, schemaError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { findTextProblem } from '../../core/text.js';
import { executeExporterImport, prepareBlogImport } from '../../operations/import.js';
import { executeConfigSchema, pluginAnalyzeBodySchema, probeBodySchema } from '../../schemas/import.js';
import { STORES_NOTHING } from '../../services/holds.js';
import { exportTooLarge } from '../../services/import/index.js';
import type { Services } from '../../services/index.js';
import { STAGED_GRACE_MS } from '../../services/media/sweeper.js';
import type { AppEnv } from '../env.js';
import { declareOpen } from '../middleware/holds.js';
import { parseMultipart } from '../multipart.js';
import { type Api, op, route } from '../op.js';
import { importMediaRoutes } from './import-media.js';

/**
 * WordPress import (the admin import page's endpoints). Outside the OpenAPI
 * contract (DESIGN.md): registered hidden, called by the admin through its
 * plain fetch helper (see docs/decisions.md). An Admin's session (with
 * X-CMS-Request: 1, enforced by the session middleware) or an Admin's token
 * whose scopes allow `import:execute`.
 */

/** The import uploads stream their own bytes; the generic body limiter must not buffer them. */
export const IMPORT_UPLOADS = [/^\/_cms\/api\/import\/blogplatform\/(analyze|execute)$/];

/** A multipart body's own bytes (boundaries, part headers, the config part) beyond the file. */
const MULTIPART_SLACK = 1024 * 1024;

const Any = z.record(z.string(), z.unknown());

/**
 * Count an upload's bytes as they pass, refusing it past the export limit
 * (importMaxExportBytes); the reader bounds the XML again after gunzip.
 */
async function* limited(stream: Readable, maxBytes: number): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    seen += chunk.length;
    if (seen > maxBytes) throw exportTooLarge(maxBytes, { upload: true, bytesRead: seen });
    yield chunk;
  }
}

function refuseDeclared(c: Context<AppEnv>, maxBytes: number): void {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_SLACK) {
    throw exportTooLarge(maxBytes, { upload: true });
  }
}

async function analyzeUpload(c: Context<AppEnv>, actor: Actor, services: Services) {
  requirePermission(actor, 'import:execute');
  const max = services.import.limits.maxExportBytes;
  refuseDeclared(c, max);
  // The file is analysed while it streams in: nothing is stored.
  const { files } = await parseMultipart(c.req.raw, {
    files: ['file'],
    fields: [],
    maxFieldBytes: 1024,
    onFile: (part) => services.import.analyze(actor, () => limited(part.stream, max)),
    discard: async () => {},
  });
  if (!files.file) throw new CmsError('NO_FILE', 'The request has no part named "file"');
  return files.file;
}

function parseConfig(raw: string | undefined) {
  let json: unknown = {};
  if (raw !== undefined && raw !== '') {
    try {
      json = JSON.parse(raw);
    } catch {
      throw issuesError('Invalid import config', [{ path: ['config'], code: 'invalid_json', message: 'is not JSON' }]);
    }
    // Escapes (`\u0000`, a lone `\ud800`) decode to text no database stores: the JSON body rule, under `config`.
    const problem = findTextProblem(json);
    if (problem) {
      throw issuesError(`Invalid import config: ${['config', ...problem.path].join('.')} ${problem.message}`, [
        { path: ['config', ...problem.path], code: problem.code, message: problem.message },
      ]);
    }
  }
  const parsed = executeConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw schemaError('Invalid import config', parsed.error.issues, ['config']);
  }
  return parsed.data;
}

/**
 * Execute an uploaded export. `?stream=1`: once every check has passed (the
 * whole file read, mappings and authors checked), the answer is
 * newline-delimited JSON outside the envelope — `{ type: "progress", stage,
 * done, total }` records, then `{ type: "result", ... }` (or `{ type: "error",
 * error }`) — so a page can show progress; a refusal is a normal error answer.
 */
async function executeUpload(c: Context<AppEnv>, actor: Actor, services: Services): Promise<Response> {
  requirePermission(actor, 'import:execute');
  const max = services.import.limits.maxExportBytes;
  refuseDeclared(c, max);
  const streamed = c.req.query('stream') === '1' || c.req.query('stream') === 'true';
  // Execute reads the export twice (check, then import), so it is spooled to a private file in the
  // media staging directory: if the process dies mid-import, the media sweep removes what it left
  // (staged files untouched for an hour). While this import runs, the file is touched well inside
  // that hour, so a long import keeps its spool.
  const dir = services.media.stagingDir;
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${newId()}.upload`);
  const fresh = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => {});
  }, STAGED_GRACE_MS / 4);
  fresh.unref();
  const cleanup = async () => {
    clearInterval(fresh);
    await rm(path, { force: true });
  };
  let run: Awaited<ReturnType<Services['import']['start']>>;
  try {
    const { fields, files } = await parseMultipart(c.req.raw, {
      files: ['file'],
      fields: ['config'],
      maxFieldBytes: 256 * 1024,
      onFile: async (part) => {
        await pipeline(limited(part.stream, max), createWriteStream(path, { mode: 0o600 }));
        return path;
      },
      discard: async () => {},
    });
    if (!files.file) throw new CmsError('NO_FILE', 'The request has no part named "file"');
    const config = parseConfig(fields.config);
    run = await services.import.start(actor, () => createReadStream(path), config);
    if (!streamed) return c.json({ success: true, data: await run() }, 200);
  } catch (err) {
    await cleanup();
    throw err;
  } finally {
    if (!streamed) await cleanup();
  }
  const encoder = new TextEncoder();
  const line = (record: unknown) => encoder.encode(`${JSON.stringify(record)}\n`);
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        const result = await run((p) => controller.enqueue(line({ type: 'progress', ...p })));
        controller.enqueue(line({ type: 'result', ...result }));
      } catch (err) {
        // Headers are sent: the failure becomes the last record.
        if (!isCmsError(err)) c.get('log').error({ err }, 'the import stopped');
        const error = isCmsError(err)
          ? { code: err.code, message: err.message }
          : { code: 'INTERNAL_ERROR', message: 'The import stopped' };
        controller.enqueue(line({ type: 'error', error }));
      } finally {
        await cleanup();
        controller.close();
      }
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
  });
}

async function jsonBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new CmsError('INVALID_JSON', 'The body is not valid JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw schemaError('Invalid request body', parsed.error.issues);
  }
  return parsed.data;
}

export function importRoutes(api: Api): void {
  importMediaRoutes(api);
  const tags = ['Import'];
  // The spec answers these two as `{ success: true, result }` and `{ success: true, analysis }` (not `data`):
  // served by hand, with the same body validation and error envelope as every route.
  declareOpen(api, 'post', '/import/probe', STORES_NOTHING);
  declareOpen(api, 'post', '/import/blogplatform-plugin/analyze', STORES_NOTHING);
  api.post('/import/probe', async (c) => {
    const actor = c.get('actor');
    requirePermission(actor, 'import:execute');
    const body = await jsonBody(c, probeBodySchema);
    return c.json({ success: true, result: await c.get('services').import.probe(actor, body.url) });
  });
  api.post('/import/blogplatform-plugin/analyze', async (c) => {
    const actor = c.get('actor');
    requirePermission(actor, 'import:execute');
    const body = await jsonBody(c, pluginAnalyzeBodySchema);
    const analysis = await c.get('services').import.plugin.analyze(actor, body.url, body.token);
    return c.json({ success: true, analysis });
  });
  route(api, {
    operation: executeExporterImport,
    method: 'post',
    path: '/import/blogplatform-plugin/execute',
    summary: 'Import one step from a live site through its exporter plugin',
    tags,
    hidden: true,
  });
  op(
    api,
    {
      method: 'post',
      path: '/import/blogplatform/analyze',
      operationId: 'analyzeBlogImport',
      summary: 'Analyze a WordPress export file',
      tags,
      openDuring: STORES_NOTHING,
      hidden: true,
      upload: {
        mediaType: 'multipart/form-data',
        schema: z.object({ file: z.string() }),
        invalid: 'no part named `file` or a body without bytes (NO_FILE)',
      },
      response: Any,
    },
    async ({ c, actor, services }) => (await analyzeUpload(c, actor, services)) as unknown as Record<string, unknown>,
  );
  route(api, {
    operation: prepareBlogImport,
    method: 'post',
    path: '/import/blogplatform/prepare',
    summary: 'Create the collections and fields an import needs (additive)',
    tags,
    hidden: true,
  });
  // Answers the envelope, or newline-delimited JSON with `?stream=1`: served by hand.
  api.post('/import/blogplatform/execute', (c) => executeUpload(c, c.get('actor'), c.get('services')));
}

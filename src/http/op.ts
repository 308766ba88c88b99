import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Actor } from '../auth/actor.js';
import { type AnyOperation, invoke, type Passed } from '../operations/operation.js';
import { ErrorEnvelope, envelope } from '../schemas/common.js';
import { HOLD_ANSWERS, holdsMet, type OpenDuring } from '../services/holds.js';
import type { Services } from '../services/index.js';
import type { AppEnv } from './env.js';
import { declareOpen } from './middleware/holds.js';

export type Api = OpenAPIHono<AppEnv>;

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

export interface OpSpec<P, Q, B, R> {
  method: Method;
  /** OpenAPI-style path relative to the API root, e.g. `/schema/collections/{slug}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of `data` in the success envelope. */
  response: R;
  status?: 200 | 201;
  /** Served but left out of the OpenAPI document (auth, setup, bylines …). */
  hidden?: boolean;
  /** No credentials needed (public comments); documented with `security: []`. */
  public?: boolean;
  /**
   * A streamed body (file uploads): documented with this media type and
   * schema, never parsed or buffered by the framework; the handler reads
   * `c.req.raw.body` itself. The document states the configured maximum size.
   */
  upload?: {
    mediaType: 'multipart/form-data' | 'application/octet-stream';
    schema: z.ZodType;
    /**
     * The 400 answers of this upload beyond VALIDATION_ERROR, above all what a body without
     * bytes means here (NO_FILE, or a legitimate empty file): documented with the 400 response.
     */
    invalid: string;
  };
  /**
   * A file answer outside the envelope (package downloads): documented with
   * these media types as binary; the handler returns a `Response`.
   */
  download?: { mediaTypes: string[]; description: string; schema?: z.ZodType };
  /**
   * The 200 answer of a creating operation that may answer an existing resource instead (a
   * deduplicated upload): documented beside the 201 with the same schema and this text.
   */
  existing?: string;
  /** A read that answers 409 in some state (a download of an unfinished export): documented with this text. */
  conflict?: string;
  /**
   * Codes this operation answers beyond those every operation of its kind documents, by status, as
   * `What happened (CODE)`: added to that status's description (or documenting the status).
   */
  errors?: Partial<Record<400 | 403 | 409 | 503, string>>;
  /**
   * A write (any method but GET) meets every hold (services/holds.ts) but the ones named here,
   * each with the reason it stays open.
   */
  openDuring?: OpenDuring;
}

export interface OpInput<P, Q, B> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  actor: Actor;
  services: Services;
  c: Context<AppEnv>;
}

/** A handler may pick a status other than the declared one (e.g. 200 for a deduplicated upload). */
export class Reply<T> {
  constructor(
    readonly data: T,
    readonly status: 200 | 201 | 202,
  ) {}
}

const errorContent = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorEnvelope } },
});

/**
 * The error answers every operation of a kind can give, whatever its handler does: stated here once
 * so that no route's document forgets them. Credentials (401, 403) on protected operations; on public
 * writes, a session's cross-site request (403 CSRF_REJECTED), an anonymous body above the anonymous
 * limit (401 UNAUTHORIZED) and the per-client limit (429 RATE_LIMITED).
 */
function globalErrors(spec: { public?: boolean; method: Method }): Record<string, ReturnType<typeof errorContent>> {
  if (!spec.public) {
    return {
      401: errorContent('Missing or invalid credentials (UNAUTHORIZED)'),
      403: errorContent('Insufficient permission (INSUFFICIENT_PERMISSIONS) or token scope (INSUFFICIENT_SCOPE)'),
    };
  }
  if (spec.method === 'get') return {};
  return {
    401: errorContent('An anonymous request body above the anonymous limit (UNAUTHORIZED)'),
    403: errorContent('A signed-in session without the CSRF token of its origin (CSRF_REJECTED)'),
    429: errorContent('Too many requests from this client (RATE_LIMITED)'),
  };
}

/** Add an operation's own codes to the descriptions of their statuses. */
function withErrors<R extends Record<string, { description: string }>>(
  extra: Partial<Record<number, string>> | undefined,
  responses: R,
): R {
  const out: Record<string, { description: string }> = { ...responses };
  for (const [status, text] of Object.entries(extra ?? {}) as Array<[string, string]>) {
    const base = out[status];
    out[status] = base ? { ...base, description: `${base.description}; ${text}` } : errorContent(text);
  }
  return out as R;
}

/**
 * Declare one REST operation: the zod schemas validate the request, build the
 * OpenAPI document, and type the handler; the result is wrapped in the
 * `{ success: true, data }` envelope.
 */
export function op<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(
  app: Api,
  spec: OpSpec<P, Q, B, R>,
  handler: (input: OpInput<P, Q, B>) => Promise<z.input<R> | Reply<z.input<R>> | Response>,
): void {
  const status = spec.status ?? 200;
  const upload = spec.upload;
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    hide: spec.hidden,
    ...(spec.public ? { security: [] } : {}),
    request: {
      ...(spec.params ? { params: spec.params as never } : {}),
      ...(spec.query ? { query: spec.query as never } : {}),
      ...(spec.body
        ? { body: { required: true, content: { 'application/json': { schema: spec.body as never } } } }
        : {}),
      ...(upload
        ? { body: { required: true, content: { [upload.mediaType]: { schema: upload.schema as never } } } }
        : {}),
    },
    responses: withErrors(spec.errors, {
      [status]: spec.download
        ? {
            description: spec.download.description,
            content: Object.fromEntries(
              // A JSON file (the package manifest) is described by its schema, other files as bytes.
              spec.download.mediaTypes.map((t) => [
                t,
                { schema: (spec.download?.schema ?? { type: 'string', format: 'binary' }) as never },
              ]),
            ),
          }
        : {
            description: 'Success',
            content: { 'application/json': { schema: envelope(spec.response) } },
          },
      ...(spec.existing && status === 201
        ? { 200: { description: spec.existing, content: { 'application/json': { schema: envelope(spec.response) } } } }
        : {}),
      400: errorContent(
        upload ? `Invalid input (VALIDATION_ERROR); ${upload.invalid}` : 'Invalid input (VALIDATION_ERROR)',
      ),
      ...globalErrors(spec),
      404: errorContent('Resource not found (NOT_FOUND)'),
      ...(spec.method === 'get' && !spec.conflict
        ? {}
        : {
            409: errorContent(
              spec.conflict ??
                'State conflict: the name or slug is taken (ALREADY_EXISTS), `_rev` is stale (REV_CONFLICT), or the state does not allow it (CONFLICT, INVALID_STATE)',
            ),
          }),
      ...(upload ? { 413: errorContent('File above the configured maximum upload size (PAYLOAD_TOO_LARGE)') } : {}),
      ...(upload || spec.body ? { 415: errorContent('Body of another media type (UNSUPPORTED_MEDIA_TYPE)') } : {}),
      500: errorContent('Internal failure (INTERNAL_ERROR)'),
      ...{
        503: errorContent(
          [
            'The database is unavailable (DATABASE_UNAVAILABLE, Retry-After)',
            ...(spec.method === 'get' ? [] : holdsMet(spec.openDuring).map((hold) => HOLD_ANSWERS[hold])),
          ].join('; '),
        ),
      },
      // Any request may write (a sign-in's last use, a 404 log row), so any may meet a full disk.
      507: errorContent('The database has no space left (DATABASE_FULL); nothing of the request was kept'),
    }),
  });
  if (spec.method !== 'get') declareOpen(app, spec.method, spec.path, spec.openDuring);
  if (upload && !spec.hidden) {
    // Documented with its body, but served without a body validator: that would read the whole upload into memory.
    app.openAPIRegistry.registerPath(route);
  }
  const served = upload ? { ...route, request: { ...route.request, body: undefined }, hide: true } : route;
  app.openapi(served, (async (c: Context<AppEnv>) => {
    const req = c.req as unknown as { valid(target: string): unknown };
    const out = await handler({
      params: (spec.params ? req.valid('param') : undefined) as Infer<P>,
      query: (spec.query ? req.valid('query') : undefined) as Infer<Q>,
      body: (spec.body ? req.valid('json') : undefined) as Infer<B>,
      actor: c.get('actor'),
      services: c.get('services'),
      c,
    });
    if (out instanceof Response) return out;
    if (out instanceof Reply) return c.json({ success: true, data: out.data }, out.status);
    return c.json({ success: true, data: out }, status);
  }) as never);
}

/** What the REST door has done by the operation's own rules before its handler runs. */
const REST_PASSED: Passed = {
  // http/middleware/holds.ts, from the `openDuring` this route declares (before the body is read).
  holds: true,
  // http/middleware/body.ts: the URL and the JSON body.
  storable: true,
  // The router's validators are the operation's own schemas.
  parsed: true,
};

/** A REST route of a catalogue operation: the operation, its method and path, and how the document presents it. */
export type RouteSpec = Omit<
  OpSpec<undefined, undefined, undefined, z.ZodType>,
  'operationId' | 'params' | 'query' | 'body' | 'response' | 'openDuring'
> & {
  operation: AnyOperation;
  /** Transport detail: parts the request carries outside the operation's schemas (a header), added before `invoke`. */
  request?(c: Context<AppEnv>, parts: RouteParts): RouteParts;
  /** Transport detail: the answer's status or headers (a deduplicated upload answers 200). */
  reply?(data: unknown, c: Context<AppEnv>): unknown;
};

type RouteParts = { params: unknown; query: unknown; body: unknown };

/**
 * Serve one operation of the catalogue (operations/<domain>.ts) over REST: its schemas
 * validate the request and build the document, and the handler is `invoke`.
 */
export function route(app: Api, spec: RouteSpec): void {
  const { operation, request, reply, ...rest } = spec;
  if ((spec.method !== 'get') !== operation.writes) {
    throw new Error(`${operation.id}: ${spec.method.toUpperCase()} must say whether the operation writes`);
  }
  op(
    app,
    {
      ...rest,
      operationId: operation.id,
      params: operation.params,
      query: operation.query,
      body: operation.body,
      response: operation.output,
      openDuring: operation.openDuring,
    },
    async ({ params, query, body, actor, services, c }) => {
      const given = { params, query, body };
      const call = { services, actor, door: 'rest' as const, header: (name: string) => c.req.header(name) };
      const out = await invoke(operation, call, request ? request(c, given) : given, { passed: REST_PASSED });
      return (reply ? reply(out, c) : out) as never;
    },
  );
}

import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import type { CmsConfig } from '../core/config.js';
import { CmsError, schemaError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Services } from '../services/index.js';
import { ADMIN_ROOT, createAdminApp, frontendOrigin } from './admin.js';
import { apiReferenceRoutes } from './api-reference.js';
import type { AppEnv } from './env.js';
import { healthRoutes, rootRedirect } from './health.js';
import { mcpRoutes } from './mcp.js';
import { authenticate } from './middleware/auth.js';
import { bodyLimits, storableInput } from './middleware/body.js';
import { errorBody, onError } from './middleware/errors.js';
import { holdGate } from './middleware/holds.js';
import { requestContext } from './middleware/request.js';
import { serverTiming } from './middleware/server-timing.js';
import { openApiDocument } from './openapi.js';
import { publicRequest, sitemapRoutes } from './public-site.js';
import { IMPORT_UPLOADS } from './routes/import.js';
import { registerRoutes } from './routes/index.js';
import { STREAMED_UPLOADS } from './routes/media.js';
import { oauthProtocolRoutes } from './routes/oauth-protocol.js';
import { TRANSFER_UPLOADS } from './routes/transfer.js';
import { wellKnownRoutes } from './well-known.js';

export const API_ROOT = '/_cms/api';

function validationHook(result: { success: boolean; error?: unknown; target?: string }) {
  if (result.success) return;
  const issues = (result.error as { issues: Array<{ path: PropertyKey[]; code: string; message: string }> }).issues;
  throw schemaError(`Invalid request ${result.target === 'json' ? 'body' : (result.target ?? 'input')}`, issues);
}

/** The REST API: every route under /_cms/api, documented or hidden. */
export function createApi(config: CmsConfig): OpenAPIHono<AppEnv> {
  const api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
  api.onError(onError);
  // First, so the time and statements of authentication are in it.
  if (config.serverTiming) api.use('*', serverTiming());
  api.use('*', authenticate());
  // Before body limits and parsing: a refused write does not read its body (an upload is not streamed in).
  api.use('*', holdGate(api, API_ROOT));
  const limits = bodyLimits(config);
  // Upload routes count their own bytes while streaming and refuse a declared length above the limit
  // before reading; the generic limiter would buffer a chunked upload whole. Anonymous callers keep
  // the small limit.
  api.use('*', (c, next) =>
    [...STREAMED_UPLOADS, ...IMPORT_UPLOADS, ...TRANSFER_UPLOADS].some((re) => re.test(c.req.path)) &&
    c.get('actor').kind !== 'anonymous'
      ? next()
      : limits(c, next),
  );
  api.use('*', storableInput());
  registerRoutes(api);
  api.get('/openapi.json', (c) => c.json(openApiDocument(api, config)));
  apiReferenceRoutes(api, API_ROOT);
  return api;
}

export function createApp(config: CmsConfig, log: Logger, services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Server-Timing and debug logs say what each request (and tool call) cost in statements; measuring costs every request.
  const measureQueries = config.serverTiming || log.isLevelEnabled('debug');
  app.use('*', requestContext(log, services, { measureQueries }));
  app.onError(onError);
  healthRoutes(app);
  rootRedirect(app, ADMIN_ROOT);
  // Before the REST API: the MCP endpoint has its own (Bearer-only) authentication.
  mcpRoutes(app, config);
  // Also before it: OAuth protocol endpoints answer RFC 6749 errors, not the envelope; discovery sits at the root.
  oauthProtocolRoutes(app);
  wellKnownRoutes(app);
  sitemapRoutes(app);
  const api = createApi(config);
  app.route(API_ROOT, api);
  app.route(
    ADMIN_ROOT,
    createAdminApp(undefined, () => frontendOrigin(services)),
  );
  const allowedMethods = routeMethods(api);
  app.notFound(async (c) => {
    // Public paths no route serves: a redirect rule answers, else a 404 the 404 log records.
    const redirected = await publicRequest(c);
    if (redirected) return redirected;
    const allowed = c.req.path.startsWith(`${API_ROOT}/`) ? allowedMethods(c.req.path.slice(API_ROOT.length)) : [];
    if (allowed.length) {
      const err = new CmsError(
        'METHOD_NOT_ALLOWED',
        `${c.req.method} is not allowed here (allowed: ${allowed.join(', ')})`,
      );
      return c.json(errorBody(err), 405, { Allow: allowed.join(', ') });
    }
    return c.json(errorBody(new CmsError('NOT_FOUND', `No route ${c.req.method} ${c.req.path}`)), 404);
  });
  return app;
}

/** The methods the API serves at a path, so a wrong method is a 405 with `Allow`, not a 404. */
function routeMethods(api: OpenAPIHono<AppEnv>): (path: string) => string[] {
  let table: Array<{ pattern: RegExp; method: string }> | undefined;
  const patternOf = (path: string) =>
    new RegExp(
      `^${path
        .split('/')
        .map((part) =>
          part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/')}/?$`,
    );
  return (path) => {
    table ??= api.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ pattern: patternOf(r.path), method: r.method }));
    const methods = new Set(table.filter((t) => t.pattern.test(path)).map((t) => t.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods];
  };
}

import { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { CmsConfig } from '../core/config.js';
import { CmsError, issuesError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Services } from '../services/index.js';
import { ADMIN_ROOT, createAdminApp } from './admin.js';
import type { AppEnv } from './env.js';
import { mcpRoutes } from './mcp.js';
import { authenticate } from './middleware/auth.js';
import { errorBody, onError } from './middleware/errors.js';
import { requestContext } from './middleware/request.js';
import { openApiDocument } from './openapi.js';
import { registerRoutes } from './routes/index.js';
import { oauthProtocolRoutes } from './routes/oauth-protocol.js';
import { wellKnownRoutes } from './well-known.js';

export const API_ROOT = '/_cms/api';
/** JSON bodies above this size are refused with 413 (uploads have their own limit). */
export const JSON_BODY_LIMIT = 10 * 1024 * 1024;

function validationHook(result: { success: boolean; error?: unknown; target?: string }) {
  if (result.success) return;
  const issues = (result.error as { issues: Array<{ path: PropertyKey[]; code: string; message: string }> }).issues;
  throw issuesError(
    `Invalid request ${result.target === 'json' ? 'body' : (result.target ?? 'input')}`,
    issues.map((i) => ({
      path: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
      code: i.code,
      message: i.message,
    })),
  );
}

/** The REST API: every route under /_cms/api, documented or hidden. */
export function createApi(config: CmsConfig): OpenAPIHono<AppEnv> {
  const api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
  api.onError(onError);
  api.use('*', authenticate());
  const limit = bodyLimit({
    maxSize: Math.max(JSON_BODY_LIMIT, config.maxUploadSize),
    onError: () => {
      throw new CmsError('PAYLOAD_TOO_LARGE', 'Request body too large');
    },
  });
  // Reads carry no body; skipping the limiter keeps them from materialising the full Request.
  api.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, next)));
  registerRoutes(api);
  api.get('/openapi.json', (c) => c.json(openApiDocument(api, config)));
  api.get('/docs', Scalar({ url: `${API_ROOT}/openapi.json`, pageTitle: 'CMS API reference' }));
  return api;
}

export function createApp(config: CmsConfig, log: Logger, services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requestContext(log, services));
  app.onError(onError);
  // Before the REST API: the MCP endpoint has its own (Bearer-only) authentication.
  mcpRoutes(app, config);
  // Also before it: OAuth protocol endpoints answer RFC 6749 errors, not the envelope; discovery sits at the root.
  oauthProtocolRoutes(app);
  wellKnownRoutes(app);
  app.route(API_ROOT, createApi(config));
  app.route(ADMIN_ROOT, createAdminApp());
  app.notFound((c) => c.json(errorBody(new CmsError('NOT_FOUND', `No route ${c.req.method} ${c.req.path}`)), 404));
  return app;
}

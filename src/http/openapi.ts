import type { OpenAPIHono } from '@hono/zod-openapi';
import type { CmsConfig } from '../core/config.js';
import { RELEASE_VERSION } from '../core/version.js';
import type { AppEnv } from './env.js';

/** The OpenAPI 3.1 document, generated from the route schemas; cached per process. */
const cache = new WeakMap<object, { key: string; doc: unknown }>();

export function openApiDocument(api: OpenAPIHono<AppEnv>, config: CmsConfig): unknown {
  const key = `${config.publicUrl}|${config.maxUploadSize}`;
  const hit = cache.get(api);
  if (hit?.key === key) return hit.doc;
  if (!hit) registerSecuritySchemes(api);
  const doc = buildDocument(api, config);
  cache.set(api, { key, doc });
  return doc;
}

function registerSecuritySchemes(api: OpenAPIHono<AppEnv>): void {
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Personal access token (`cms_pat_…`) or OAuth access token',
  });
  api.openAPIRegistry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'cms_session',
    description: 'Admin session; state-changing requests must also send `X-CMS-Request: 1`',
  });
}

const UPLOAD_TYPES = ['multipart/form-data', 'application/octet-stream'];

interface OperationObject {
  description?: string;
  requestBody?: { description?: string; content?: Record<string, unknown> };
  [extension: `x-${string}`]: unknown;
}

/** Upload operations state the configured maximum (it is configuration, so it is written in at build time). */
function stateUploadLimit(doc: { paths?: Record<string, Record<string, OperationObject>> }, max: number): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      const body = op.requestBody;
      if (!body?.content || !UPLOAD_TYPES.some((t) => t in (body.content ?? {}))) continue;
      const note = `Maximum upload size: ${max} bytes (\`maxUploadSize\`); a larger file is refused with 413 PAYLOAD_TOO_LARGE.`;
      op.description = op.description ? `${op.description}\n\n${note}` : note;
      body.description = note;
      op['x-max-upload-size'] = max;
    }
  }
}

function buildDocument(api: OpenAPIHono<AppEnv>, config: CmsConfig): unknown {
  const doc = api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'CMS REST API',
      version: RELEASE_VERSION,
      description: `Headless content management REST API. Every response is an envelope: \`{ success: true, data }\` or \`{ success: false, error: { code, message, details? } }\`. Maximum media upload size: ${config.maxUploadSize} bytes.`,
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: `${config.publicUrl}/_cms/api` }],
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
  });
  stateUploadLimit(doc as never, config.maxUploadSize);
  return doc;
}

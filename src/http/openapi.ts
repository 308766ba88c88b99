import { getOpenApiMetadata, getRefId, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { OpenAPIHono, z } from '@hono/zod-openapi';
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

type DocumentConfig = Parameters<OpenAPIHono<AppEnv>['getOpenAPI31Document']>[0];
type Definitions = OpenAPIHono<AppEnv>['openAPIRegistry']['definitions'];
type SchemaOut = Record<string, unknown>;
/** The part of the library's generator the null fix wraps (every nested schema goes through it). */
interface SchemaGenerator {
  generateSchemaWithRef(schema: z.ZodType): SchemaOut;
}

/** Wrappers that keep the schema they wrap, as the library unwraps them to find a schema's name. */
const WRAPPERS = new Set(['nullable', 'optional', 'default', 'prefault', 'readonly', 'nonoptional']);

function innerOf(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType };
  return WRAPPERS.has(def.type) ? def.innerType : undefined;
}

/**
 * The named schema under a `.nullable()` that takes that schema's name, or undefined. The library
 * finds a name through the wrappers, so `Named.nullable()` is written as the bare `$ref` (the null is
 * lost) — or, met before `Named` itself, becomes the component and makes it nullable everywhere.
 * A nullable schema registered under a name of its own (`….nullable().openapi('Other')`) is its own
 * component and is left alone, as is a named schema that already takes null.
 */
function nullableNamed(schema: z.ZodType): z.ZodType | undefined {
  const above: z.ZodType[] = [];
  for (let s: z.ZodType | undefined = schema; s; s = innerOf(s)) {
    if (s._zod.def.type !== 'nullable') {
      above.push(s);
      continue;
    }
    const inner = innerOf(s) as z.ZodType;
    const name = getRefId(inner);
    if (!name || inner.safeParse(null).success) return undefined;
    const own = [...above, s].map((w) => getRefId(w)).filter((n) => n !== undefined);
    return own.every((n) => n === name) ? inner : undefined;
  }
  return undefined;
}

/** Metadata given on the wrappers (a description of the property …), not inherited from the named schema. */
function ownMetadata(schema: z.ZodType, named: z.ZodType): SchemaOut {
  const mine = getOpenApiMetadata(schema) as SchemaOut;
  const theirs = getOpenApiMetadata(named) as SchemaOut;
  const out: SchemaOut = {};
  for (const [key, value] of Object.entries(mine)) {
    if (key === 'param' || value === undefined) continue;
    if (JSON.stringify(value) !== JSON.stringify(theirs[key])) out[key] = value;
  }
  return out;
}

/**
 * A nullable value of a named schema is written `anyOf: [{ $ref }, { type: 'null' }]` (OpenAPI 3.1),
 * wherever it appears (property, array item, union member, parameter, body), and the named component
 * stays as its schema is.
 */
function keepNullOfNamedSchemas(generator: SchemaGenerator): void {
  const generate = generator.generateSchemaWithRef.bind(generator);
  generator.generateSchemaWithRef = (schema) => {
    const named = nullableNamed(schema);
    if (!named) return generate(schema);
    return { anyOf: [generate(named), { type: 'null' }], ...ownMetadata(schema, named) };
  };
}

/** The OpenAPI 3.1 document of these route and schema definitions (what `getOpenAPI31Document` does, with the null fix). */
export function generateDocument31(definitions: Definitions, config: DocumentConfig): SchemaOut {
  const v31 = new OpenApiGeneratorV31(definitions);
  keepNullOfNamedSchemas((v31 as unknown as { generator: SchemaGenerator }).generator);
  return v31.generateDocument(config) as unknown as SchemaOut;
}

function buildDocument(api: OpenAPIHono<AppEnv>, config: CmsConfig): unknown {
  const doc = generateDocument31(api.openAPIRegistry.definitions, {
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

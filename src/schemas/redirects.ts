import { z } from '@hono/zod-openapi';
import { REDIRECT_STATUSES } from '../services/redirects/index.js';
import { safeString } from './safe-text.js';

/** Request and response shapes of the redirects API and the 404 log. */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
const Id = z.string().min(1).max(64);
const StatusCode = z
  .literal([...REDIRECT_STATUSES])
  .openapi({ type: 'integer', enum: [...REDIRECT_STATUSES], description: '301 (default), 302, 307 or 308' });

const limitParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(100)
  .optional()
  .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer', description: '1 to 100, default 50' });
const cursorParam = z
  .string()
  .max(2000)
  .optional()
  .openapi({ param: { name: 'cursor', in: 'query' }, description: 'nextCursor of the previous page, unchanged' });

export const RedirectIdParams = z.object({ id: Id.openapi({ param: { name: 'id', in: 'path' } }) });

const Warning = z
  .object({
    code: z.enum(['redirect_chain', 'chained_into']),
    message: z.string(),
    chain: z.array(z.string()),
    ruleId: z.string().optional(),
  })
  .openapi('RedirectWarning');

export const RedirectSchema = z
  .object({
    id: z.string(),
    source: z.string().openapi({ description: 'Normalised source path' }),
    kind: z.enum(['exact', 'prefix', 'pattern']),
    target: z.string(),
    statusCode: StatusCode,
    enabled: z.boolean(),
    note: z.string().nullable(),
    hits: z.number().int(),
    lastHitAt: Instant.nullable(),
    createdAt: Instant,
    updatedAt: Instant,
    warnings: z.array(Warning).openapi({ description: 'Chains through this rule (loops are refused when written)' }),
  })
  .openapi('Redirect');

export const RedirectList = z
  .object({ items: z.array(RedirectSchema), nextCursor: z.string().optional() })
  .openapi('RedirectList');

const sourceField = safeString().min(1).max(2048).openapi({
  description:
    'Site path: "/old" (exact), "/docs/*" (prefix; the rest is :splat) or "/blog/:year/:slug" (pattern; :name captures one segment)',
  example: '/blog/:year/:slug',
});
const targetField = safeString().min(1).max(2048).openapi({
  description: 'Site path or absolute http(s) URL; :name and :splat are filled with the captures',
  example: '/posts/:slug',
});
const noteField = safeString().max(500).nullable();

export const CreateRedirectBody = z
  .object({
    source: sourceField,
    target: targetField,
    statusCode: StatusCode.optional(),
    enabled: z.boolean().optional(),
    note: noteField.optional(),
  })
  .strict()
  .openapi('CreateRedirectRequest');

export const UpdateRedirectBody = z
  .object({
    source: sourceField.optional(),
    target: targetField.optional(),
    statusCode: StatusCode.optional(),
    enabled: z.boolean().optional(),
    note: noteField.optional(),
  })
  .strict()
  .openapi('UpdateRedirectRequest');

export const ListRedirectsQuery = z.object({
  cursor: cursorParam,
  limit: limitParam,
  sort: z
    .enum(['created', 'source', 'hits'])
    .optional()
    .openapi({ param: { name: 'sort', in: 'query' }, description: 'created (newest first, default), source, hits' }),
  prefix: safeString()
    .max(2048)
    .optional()
    .openapi({ param: { name: 'prefix', in: 'query' }, description: 'Sources starting with this text' }),
});

export const TestRedirectQuery = z.object({
  path: safeString()
    .min(1)
    .max(2048)
    .openapi({
      param: { name: 'path', in: 'query' },
      description: 'A site path, with or without a query',
      example: '/old?x=1',
    }),
});

export const RedirectTestResult = z
  .object({
    path: z.string().openapi({ description: 'The path as rules see it' }),
    match: z
      .object({ redirect: RedirectSchema, location: z.string(), statusCode: StatusCode })
      .nullable()
      .openapi({ description: 'The rule that answers the path; null: the path is a 404' }),
    hops: z.array(z.string()).openapi({ description: 'Every location a visitor is sent to, in order' }),
    loop: z.boolean(),
  })
  .openapi('RedirectTestResult');

export const DeletedRedirect = z.object({ deleted: z.literal(true), id: z.string() }).openapi('DeletedRedirect');

// ----- 404 log -----

export const NotFoundEntrySchema = z
  .object({
    id: z.string(),
    path: z.string(),
    referrer: z.string().nullable().openapi({ description: 'Origin and path of the referring page (no query)' }),
    count: z.number().int(),
    firstSeen: Instant,
    lastSeen: Instant,
  })
  .openapi('NotFoundEntry');

export const NotFoundList = z
  .object({ items: z.array(NotFoundEntrySchema), nextCursor: z.string().optional() })
  .openapi('NotFoundList');

export const NotFoundListQuery = z.object({
  cursor: cursorParam,
  limit: limitParam,
  sort: z
    .enum(['recent', 'count'])
    .optional()
    .openapi({ param: { name: 'sort', in: 'query' }, description: 'recent (last seen first, default) or count' }),
  path: safeString()
    .max(2048)
    .optional()
    .openapi({ param: { name: 'path', in: 'query' }, description: 'Entries of exactly this path' }),
});

export const NotFoundSummaryQuery = z.object({ cursor: cursorParam, limit: limitParam });

export const NotFoundSummary = z
  .object({
    items: z.array(
      z.object({
        path: z.string(),
        count: z.number().int(),
        referrers: z.number().int().openapi({ description: 'Entries (distinct referrers) of the path' }),
        firstSeen: Instant,
        lastSeen: Instant,
      }),
    ),
    nextCursor: z.string().optional(),
    totalHits: z.number().int().openapi({ description: 'Misses recorded in the log' }),
    evictedHits: z
      .number()
      .int()
      .openapi({ description: 'Misses of entries evicted to keep the log within its bound' }),
    entries: z.number().int(),
  })
  .openapi('NotFoundSummary');

export const PruneNotFoundBody = z
  .object({
    ids: z.array(Id).max(1000).optional(),
    paths: z.array(safeString().max(2048)).max(1000).optional(),
    before: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'Entries last seen before this instant' }),
    maxCount: z.number().int().min(0).optional().openapi({ description: 'Entries seen at most this many times' }),
  })
  .strict()
  .openapi('PruneNotFoundRequest', { description: 'Entries matching every given criterion are removed' });

export const PruneResult = z.object({ deleted: z.number().int() }).openapi('NotFoundPruneResult');

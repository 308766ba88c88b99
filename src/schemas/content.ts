import { z } from '@hono/zod-openapi';
import { BYLINE_RULES } from '../services/content/byline-rules.js';
import { SlugParam } from './common.js';

/** Request and response shapes of the content API. */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });

export const BylineSchema = z
  .object({
    id: z.string(),
    displayName: z.string(),
    slug: z.string(),
    bio: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    websiteUrl: z.string().nullable(),
    userId: z.string().nullable(),
    locale: z.string(),
    translationGroup: z.string(),
  })
  .openapi('Byline');

export const CreditSchema = z
  .object({ byline: BylineSchema, roleLabel: z.string().nullable() })
  .openapi('BylineCredit');

export const LinkedEntrySchema = z
  .object({
    id: z.string(),
    slug: z.string().nullable(),
    collection: z.string(),
    title: z.string().nullable(),
    locale: z.string(),
    translationGroup: z.string(),
    status: z.string(),
  })
  .openapi('LinkedEntry');

export const ReferencePageSchema = z
  .object({
    items: z.array(LinkedEntrySchema),
    nextCursor: z.string().optional(),
    next: z.string().optional().openapi({ description: 'Route (relative to the API root) of the next page' }),
  })
  .openapi('ReferencePage');

export const ContentItemSchema = z
  .object({
    id: z.string(),
    type: z.string().openapi({ description: 'Collection slug' }),
    slug: z.string().nullable(),
    status: z.enum(['draft', 'published', 'scheduled', 'trashed']),
    locale: z.string(),
    translationGroup: z.string(),
    data: z.record(z.string(), z.unknown()).openapi({
      description:
        'Field values keyed by field slug. Image field values of library images carry read-only `srcset` and `srcsetCandidates` (see the ImageFieldValue schema)',
    }),
    authorId: z.string().nullable(),
    primaryBylineId: z.string().nullable(),
    byline: BylineSchema.nullable().openapi({ description: 'Primary byline' }),
    bylines: z.array(CreditSchema).openapi({ description: 'Ordered credits' }),
    createdAt: Instant,
    updatedAt: Instant,
    publishedAt: Instant.nullable(),
    scheduledAt: Instant.nullable(),
    trashedAt: Instant.nullable(),
    hasDraft: z.boolean(),
    liveRevisionId: z.string().nullable(),
    draftRevisionId: z.string().nullable(),
    references: z
      .record(z.string(), ReferencePageSchema)
      .optional()
      .openapi({ description: 'Single-entry reads: first 50 linked entries per reference field' }),
  })
  .openapi('ContentItem');

export const SingleContent = z
  .object({ item: ContentItemSchema, _rev: z.string().openapi({ description: 'Opaque revision token for writes' }) })
  .openapi('ContentSingle');

export const ContentList = z
  .object({
    items: z.array(ContentItemSchema),
    nextCursor: z.string().optional(),
    total: z.number().int().optional().openapi({ description: 'Match count (numbered page mode)' }),
  })
  .openapi('ContentList');

const References = z
  .record(z.string(), z.array(z.string().min(1)).max(1000))
  .openapi({ description: 'Reference field slug → entry IDs in display order (at most 1000 per field)' });

/** Credits: byline IDs, or `{ bylineId, roleLabel }`; the first is the primary byline. */
const Bylines = z
  .array(
    z.union([
      z.string().min(1),
      z.object({ bylineId: z.string().min(1), roleLabel: BYLINE_RULES.roleLabel.optional() }),
    ]),
  )
  .max(50)
  .transform((list) => list.map((b) => (typeof b === 'string' ? { bylineId: b } : b)));

const Rev = z.string().optional().openapi({ description: '`_rev` from the preceding read; a stale value is a 409' });
const OverrideLock = z
  .boolean()
  .optional()
  .openapi({ description: 'Write even though another user holds the edit lock' });

/**
 * Terms sent with a content create or update (REST and MCP): applied in the entry write's own
 * transaction, to the whole translation group, by the taxonomy domain.
 */
export const EntryTermsInput = z
  .record(z.string().min(1).max(64), z.array(z.string().min(1).max(200)).max(100))
  .optional()
  .describe(
    "Taxonomy name → term IDs or slugs (in the entry's locale); replaces the entry's terms of each taxonomy named",
  );

export const CreateContentBody = z
  .object({
    data: z.record(z.string(), z.unknown()).optional(),
    slug: z.string().max(200).nullable().optional(),
    locale: z.string().optional().openapi({ description: 'A locale configured for the site' }),
    translationOf: z
      .string()
      .optional()
      .openapi({ description: 'Database ID of the source entry (creates a draft translation)' }),
    references: References.optional(),
    bylines: Bylines.optional(),
    terms: EntryTermsInput,
  })
  .strict()
  .openapi('CreateContentRequest');

export const UpdateContentBody = z
  .object({
    data: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Only the fields to change' }),
    slug: z.string().max(200).nullable().optional(),
    references: References.optional(),
    bylines: Bylines.optional(),
    _rev: Rev,
    overrideLock: OverrideLock,
    terms: EntryTermsInput,
  })
  .strict()
  .openapi('UpdateContentRequest');

export const GuardedBody = z.object({ _rev: Rev, overrideLock: OverrideLock }).strict().openapi('GuardedWriteRequest');

export const ScheduleBody = z
  .object({
    scheduledAt: z
      .string()
      .openapi({ description: 'ISO 8601 with Z or an offset; must be in the future', format: 'date-time' }),
    _rev: Rev,
    overrideLock: OverrideLock,
  })
  .strict()
  .openapi('ScheduleContentRequest');

const boolParam = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const GuardedQuery = z.object({
  overrideLock: boolParam.openapi({ param: { name: 'overrideLock', in: 'query' }, type: 'string' }),
  _rev: z
    .string()
    .optional()
    .openapi({ param: { name: '_rev', in: 'query' } }),
});

export const CollectionPathParams = z.object({
  collection: SlugParam.openapi({ param: { name: 'collection', in: 'path' } }),
});

export const EntryPathParams = z.object({
  collection: SlugParam.openapi({ param: { name: 'collection', in: 'path' } }),
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'Database ID (or, on reads, a slug)' }),
});

export const GetContentQuery = z.object({
  locale: z
    .string()
    .optional()
    .openapi({ param: { name: 'locale', in: 'query' }, description: 'For slug-addressed reads' }),
});

const positiveInt = (name: string, max?: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(max ?? Number.MAX_SAFE_INTEGER)
    .optional()
    .openapi({ param: { name, in: 'query' }, type: 'integer' });

export const ListContentQuery = z.object({
  locale: z
    .string()
    .optional()
    .openapi({ param: { name: 'locale', in: 'query' } }),
  cursor: z
    .string()
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
  page: positiveInt('page'),
  limit: positiveInt('limit', 100),
  orderBy: z
    .string()
    .optional()
    .openapi({
      param: { name: 'orderBy', in: 'query' },
      description: 'createdAt (default), updatedAt, publishedAt, slug, or an indexed field slug',
    }),
  order: z
    .enum(['asc', 'desc'])
    .optional()
    .openapi({ param: { name: 'order', in: 'query' } }),
  fieldFilters: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined) return undefined;
      try {
        const parsed: unknown = JSON.parse(s);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'fieldFilters must be a JSON object: {"field": value | {"gte": …}}' });
      return z.NEVER;
    })
    .openapi({
      param: { name: 'fieldFilters', in: 'query' },
      type: 'string',
      description: 'JSON object over indexed fields, e.g. {"views":{"gte":10},"kind":"news"}',
    }),
  status: z
    .enum(['draft', 'published', 'scheduled'])
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
  bylineId: z
    .string()
    .optional()
    .openapi({ param: { name: 'bylineId', in: 'query' }, description: 'Entries crediting this byline' }),
  includeAuthorByline: boolParam.openapi({
    param: { name: 'includeAuthorByline', in: 'query' },
    type: 'string',
    description: "With bylineId: also entries without credits whose author is the byline's user",
  }),
  include: z
    .enum(['references'])
    .optional()
    .openapi({ param: { name: 'include', in: 'query' } }),
  term: z
    .string()
    .min(3)
    .max(1000)
    .optional()
    .openapi({
      param: { name: 'term', in: 'query' },
      description:
        'Entries carrying a term: `<taxonomy>:<slug>` (slug in the list locale); several slugs separated by commas match any of them',
      example: 'tags:news',
    }),
});

export const CompareResult = z
  .object({
    id: z.string(),
    status: z.string(),
    hasDraft: z.boolean(),
    live: z.object({ slug: z.string().nullable(), data: z.record(z.string(), z.unknown()) }).nullable(),
    draft: z.object({ slug: z.string().nullable(), data: z.record(z.string(), z.unknown()) }).nullable(),
    changedFields: z.array(z.string()),
    _rev: z.string(),
  })
  .openapi('ContentComparison');

export const TranslationsResult = z
  .object({
    translationGroup: z.string(),
    items: z.array(
      z.object({
        id: z.string(),
        slug: z.string().nullable(),
        locale: z.string(),
        status: z.string(),
        updatedAt: Instant,
      }),
    ),
  })
  .openapi('ContentTranslations');

export const AuthorsResult = z
  .object({ items: z.array(z.object({ id: z.string(), name: z.string().nullable(), count: z.number().int() })) })
  .openapi('ContentAuthors');

export const LockStateSchema = z
  .object({
    enabled: z.boolean(),
    heldByCaller: z.boolean(),
    holder: z
      .object({ userId: z.string(), userName: z.string().nullable(), acquiredAt: Instant, expiresAt: Instant })
      .nullable(),
  })
  .openapi('EntryLock');

export const AcquireLockBody = z
  .object({
    token: z.string().max(200).optional().openapi({ description: 'Opaque id of one editing session' }),
    takeover: z.boolean().optional().openapi({ description: "Replace another editor's lease" }),
  })
  .strict()
  .openapi('AcquireLockRequest');

export const ReleaseLockQuery = z.object({
  token: z
    .string()
    .optional()
    .openapi({ param: { name: 'token', in: 'query' }, description: 'The token the lease was taken with' }),
});

export const PermanentDeleteResult = z.object({ deleted: z.literal(true), id: z.string() }).openapi('ContentDeleted');

import { z } from '@hono/zod-openapi';
import { SUPPORTS } from '../services/schema/model.js';
import { SlugParam } from './common.js';
import { BlockTypeSchema, FieldSchema } from './schema.js';

/** Shapes of the admin's views around entries (content model, dashboard, reference lookup, revisions). */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });

const LocaleQuery = z.object({
  locale: z
    .string()
    .max(35)
    .optional()
    .openapi({ param: { name: 'locale', in: 'query' }, description: 'Defaults to the default locale' }),
});

export const ContentModelQuery = LocaleQuery;

const StatusCounts = z
  .object({
    all: z.number().int().openapi({ description: 'Entries not in the trash' }),
    draft: z.number().int(),
    published: z.number().int(),
    scheduled: z.number().int(),
    trashed: z.number().int(),
  })
  .openapi('ContentStatusCounts');

export const ContentModelResult = z
  .object({
    locale: z.string(),
    i18n: z.object({
      locales: z.array(z.string()),
      defaultLocale: z.string(),
      fallback: z.record(z.string(), z.string()),
    }),
    collections: z.array(
      z.object({
        slug: z.string(),
        label: z.string(),
        labelSingular: z.string(),
        description: z.string().nullable(),
        icon: z.string().nullable(),
        supports: z.array(z.enum(SUPPORTS)),
        sortOrder: z.number(),
        titleField: z.string().nullable().openapi({ description: 'Field shown as the entry title' }),
        fields: z.array(FieldSchema),
        counts: StatusCounts,
      }),
    ),
    blockTypes: z.array(BlockTypeSchema),
  })
  .openapi('ContentModel');

export const EntrySummarySchema = z
  .object({
    collection: z.string(),
    id: z.string(),
    slug: z.string().nullable(),
    title: z.string().nullable(),
    status: z.string(),
    locale: z.string(),
    translationGroup: z.string(),
    authorId: z.string().nullable(),
    authorName: z.string().nullable(),
    updatedAt: Instant,
    scheduledAt: Instant.nullable(),
  })
  .openapi('EntrySummary');

export const DashboardResult = z
  .object({
    locale: z.string(),
    recent: z.array(EntrySummarySchema).openapi({ description: 'Latest edits' }),
    mine: z.array(EntrySummarySchema).openapi({ description: "The caller's drafts" }),
    review: z
      .array(EntrySummarySchema)
      .nullable()
      .openapi({ description: 'Contributor drafts awaiting publication; null for callers who cannot publish them' }),
    scheduled: z.array(EntrySummarySchema).openapi({ description: 'Next scheduled publications' }),
  })
  .openapi('ContentDashboard');

export const LookupParams = z.object({
  collection: SlugParam.openapi({ param: { name: 'collection', in: 'path' } }),
});

export const LookupQuery = LocaleQuery.extend({
  q: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'q', in: 'query' }, description: 'Slug, title or ID fragment (case-insensitive)' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer' }),
});

export const LookupResult = z.object({ items: z.array(EntrySummarySchema) }).openapi('EntryLookup');

export const RevisionPathParams = z.object({
  collection: SlugParam.openapi({ param: { name: 'collection', in: 'path' } }),
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' } }),
  revisionId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'revisionId', in: 'path' } }),
});

export const RevisionListQuery = z.object({
  cursor: z
    .string()
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer' }),
});

export const RevisionSchema = z
  .object({
    id: z.string(),
    entryId: z.string(),
    kind: z.enum(['save', 'draft', 'publish', 'restore']),
    slug: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    references: z.record(z.string(), z.unknown()).nullable(),
    bylines: z.array(z.unknown()).nullable(),
    createdBy: z.string().nullable(),
    createdByName: z
      .string()
      .nullable()
      .openapi({ description: 'Name of the user who saved it (null for the system, a deleted user or no name)' }),
    changedFields: z.array(z.string()).nullable().openapi({
      description:
        'What this revision changed from the one before it: "slug", then field slugs in field order; null for the earliest revision kept',
    }),
    createdAt: Instant,
    live: z.boolean().openapi({ description: 'The revision the live version was published from' }),
    draft: z.boolean().openapi({ description: 'The pending draft' }),
  })
  .openapi('ContentRevision');

export const RevisionList = z
  .object({ items: z.array(RevisionSchema), nextCursor: z.string().optional() })
  .openapi('ContentRevisionList');

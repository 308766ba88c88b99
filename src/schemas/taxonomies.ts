import { z } from '@hono/zod-openapi';
import { TAXONOMY_RULES } from '../services/taxonomies/rules.js';
import { SlugParam } from './common.js';
import { EntryPathParams } from './content.js';
import { CursorQuery, LocaleParam, MachineName, safeText } from './text.js';

/** Taxonomies, terms and the terms of entries. */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
const Id = z.string().min(1).max(64);

export const TaxonomySchema = z
  .object({
    id: z.string().openapi({ description: "ID of this locale's definition (what translationOf takes)" }),
    name: z.string(),
    label: z.string(),
    labelSingular: z.string(),
    hierarchical: z.boolean().openapi({ description: 'Taxonomy-wide: identical in every locale' }),
    collections: z
      .array(z.string())
      .openapi({ description: 'Taxonomy-wide: collections whose entries take its terms' }),
    locale: z.string(),
    locales: z.array(z.string()).openapi({ description: 'Configured locales that have a definition' }),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .openapi('Taxonomy');

export const TaxonomyList = z
  .object({ items: z.array(TaxonomySchema), nextCursor: z.string().optional() })
  .openapi('TaxonomyList');

export const TaxonomyTranslations = z
  .object({ name: z.string(), items: z.array(TaxonomySchema) })
  .openapi('TaxonomyTranslations');

export const TaxonomyCreateBody = z
  .object({
    name: TAXONOMY_RULES.name
      .optional()
      .openapi({ description: 'Required unless translationOf is given', example: 'tags' }),
    label: TAXONOMY_RULES.label,
    labelSingular: TAXONOMY_RULES.label.optional().openapi({ description: 'Defaults to label' }),
    hierarchical: z
      .boolean()
      .optional()
      .openapi({ description: 'Default false; a locale variant must match the taxonomy' }),
    collections: z
      .array(SlugParam)
      .max(TAXONOMY_RULES.maxCollections)
      .optional()
      .openapi({ description: 'Collection slugs; a locale variant must match the taxonomy' }),
    locale: LocaleParam,
    translationOf: Id.optional().openapi({ description: 'ID of a definition of the same taxonomy in another locale' }),
  })
  .strict()
  .openapi('CreateTaxonomyRequest');

export const TaxonomyUpdateBody = z
  .object({
    label: TAXONOMY_RULES.label.optional(),
    labelSingular: TAXONOMY_RULES.label.optional(),
    hierarchical: z.boolean().optional().openapi({ description: 'Changes every locale' }),
    collections: z
      .array(SlugParam)
      .max(TAXONOMY_RULES.maxCollections)
      .optional()
      .openapi({ description: 'Changes every locale' }),
  })
  .strict()
  .openapi('UpdateTaxonomyRequest');

export const TaxonomyParams = z.object({ name: MachineName });
export const LocaleQuery = z.object({ locale: LocaleParam });
export const TaxonomyListQuery = z.object({ locale: LocaleParam, ...CursorQuery });
export const TaxonomyDeleted = z.object({ deleted: z.literal(true), name: z.string() }).openapi('TaxonomyDeleted');

export const TermSchema = z
  .object({
    id: z.string(),
    taxonomy: z.string(),
    locale: z.string(),
    translationGroup: z.string(),
    slug: z.string(),
    label: z.string(),
    description: z.string().nullable(),
    parentId: z.string().nullable().openapi({ description: 'The parent term in the same locale' }),
    parentGroup: z.string().nullable().openapi({ description: 'Translation group of the parent' }),
    position: z.number().int().openapi({ description: 'Manual order among siblings, shared by every locale' }),
    count: z.number().int().openapi({ description: 'Published entries of this locale carrying the term' }),
    childCount: z.number().int(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .openapi('Term');

export const TermList = z.object({ items: z.array(TermSchema), nextCursor: z.string().optional() }).openapi('TermList');

export const TermTranslations = z.object({ translationGroup: z.string(), items: z.array(TermSchema) });

const Description = TAXONOMY_RULES.termDescription.optional();

export const TermCreateBody = z
  .object({
    label: TAXONOMY_RULES.label,
    slug: z.string().max(200).optional().openapi({ description: 'Generated from the label when omitted' }),
    description: Description,
    parentId: Id.nullable()
      .optional()
      .openapi({ description: 'A term of the same taxonomy; hierarchical taxonomies only' }),
    locale: LocaleParam,
    translationOf: Id.optional().openapi({
      description: 'A term in another locale: the new term joins its translation group',
    }),
  })
  .strict()
  .openapi('CreateTermRequest');

export const TermUpdateBody = z
  .object({
    label: TAXONOMY_RULES.label.optional(),
    slug: z.string().max(200).optional(),
    description: Description,
    parentId: Id.nullable().optional().openapi({
      description: 'Moves the term in every locale (null: to the top level); it goes last among its new siblings',
    }),
  })
  .strict()
  .openapi('UpdateTermRequest');

export const TermListQuery = z.object({
  locale: LocaleParam,
  parent: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: '`root` for top-level terms, or a term ID or slug for its children; omitted: every term' }),
  search: safeText(200).optional().openapi({ description: 'Part of the label or slug' }),
  ...CursorQuery,
});

export const TermParams = z.object({ name: MachineName, slug: z.string().min(1).max(200) });

export const TermDeleted = z
  .object({ deleted: z.literal(true), id: z.string(), slug: z.string() })
  .openapi('TermDeleted');

export const ReorderTermsBody = z
  .object({
    ids: z.array(Id).min(1).max(1000).openapi({
      description: 'Term IDs of one sibling group, in their new relative order; omitted siblings keep their places',
    }),
  })
  .strict()
  .openapi('ReorderTermsRequest');

export const EntryTermsSchema = z
  .object({
    taxonomy: z.string(),
    locale: z.string().openapi({ description: 'Locale of the entry; terms are shown in it (else its fallback)' }),
    items: z.array(TermSchema),
  })
  .openapi('ContentTerms');

export const SetEntryTermsBody = z
  .object({
    terms: z.array(z.string().min(1).max(200)).max(100).openapi({
      description: "Term IDs or slugs (in the entry's locale), in order; replaces the entry's terms of this taxonomy",
    }),
  })
  .strict()
  .openapi('SetContentTermsRequest');

export const EntryTermsParams = EntryPathParams.extend({ taxonomy: MachineName });

import { z } from '@hono/zod-openapi';
import { fieldInputSchema, fieldUpdateSchema } from '../services/fields/definition.js';
import { FIELD_TYPES } from '../services/fields/types.js';
import { MAX_COLLECTION_SLUG } from '../services/schema/collections.js';
import { SUPPORTS } from '../services/schema/model.js';
import { MAX_BLOCK_FIELDS, SCHEMA_DESCRIPTION, SCHEMA_ICON, SCHEMA_LABEL } from '../services/schema/rules.js';
import { MAX_URL_PATTERN } from '../services/schema/url-pattern.js';
import { identifierSlug, SlugParam } from './common.js';

/** Request and response shapes of the schema API (collections, fields, block types, orphans). */

export const FieldInputSchema = fieldInputSchema.openapi('FieldInput', {
  description: 'A field of a collection. `validation` keys depend on `type` (see the field types reference).',
});
export const FieldUpdateSchema = fieldUpdateSchema.openapi('FieldUpdate');

const fieldDefinitionShape = {
  slug: z.string(),
  label: z.string(),
  type: z.enum(FIELD_TYPES),
  required: z.boolean(),
  unique: z.boolean(),
  searchable: z.boolean(),
  indexed: z.boolean(),
  translatable: z.boolean(),
  defaultValue: z.unknown().optional(),
  validation: z.record(z.string(), z.unknown()).optional(),
  widget: z.string().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  sortOrder: z.number().optional(),
};

export const FieldDefinitionSchema = z.object(fieldDefinitionShape).openapi('FieldDefinition');

export const FieldSchema = z
  .object({
    id: z.string(),
    ...fieldDefinitionShape,
    sortOrder: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Field');

const Supports = z.array(z.enum(SUPPORTS)).openapi({
  description: 'Features of the collection; default ["drafts","revisions","editLock"]',
});

const UrlPatternString = z.string().min(2).max(MAX_URL_PATTERN).startsWith('/').includes('{slug}');

/** Public URL of the entries: one pattern, or one per locale. Null: not routable. */
const UrlPattern = z
  .union([UrlPatternString, z.record(z.string().max(35), UrlPatternString)])
  .nullable()
  .openapi('UrlPattern', {
    description:
      'Makes entries routable (sitemaps, hreflang): "/blog/{slug}" (other locales are prefixed with "/{locale}"), or one pattern per locale such as {"en":"/blog/{slug}","fr":"/fr/blogue/{slug}"}. Placeholders: {slug} (required, once) and {locale}.',
    example: '/blog/{slug}',
  });

const collectionBase = {
  id: z.string(),
  slug: z.string(),
  label: z.string(),
  labelSingular: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  supports: Supports,
  urlPattern: UrlPattern,
  sortOrder: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const CollectionSummarySchema = z
  .object({ ...collectionBase, fieldCount: z.number().int() })
  .openapi('CollectionSummary');

export const CollectionSchema = z.object({ ...collectionBase, fields: z.array(FieldSchema) }).openapi('Collection');

export const CreateCollectionBody = z
  .object({
    slug: identifierSlug(MAX_COLLECTION_SLUG).openapi({
      description: 'Identifier; the entries live in table `ec_<slug>`',
    }),
    label: SCHEMA_LABEL,
    labelSingular: SCHEMA_LABEL.optional(),
    description: SCHEMA_DESCRIPTION.optional(),
    icon: SCHEMA_ICON.optional(),
    supports: Supports.optional(),
    urlPattern: UrlPattern.optional(),
    sortOrder: z.number().int().min(-2147483648).max(2147483647).optional(),
    fields: z.array(FieldInputSchema).max(200).optional(),
  })
  .strict()
  .openapi('CreateCollectionRequest');

export const UpdateCollectionBody = z
  .object({
    label: SCHEMA_LABEL.optional(),
    labelSingular: SCHEMA_LABEL.optional(),
    description: SCHEMA_DESCRIPTION.optional(),
    icon: SCHEMA_ICON.optional(),
    supports: Supports.optional(),
    urlPattern: UrlPattern.optional(),
    sortOrder: z.number().int().optional(),
  })
  .strict()
  .openapi('UpdateCollectionRequest');

export const CollectionParams = z.object({ slug: SlugParam.openapi({ param: { name: 'slug', in: 'path' } }) });
export const FieldParams = z.object({
  slug: SlugParam.openapi({ param: { name: 'slug', in: 'path' } }),
  fieldSlug: SlugParam.openapi({ param: { name: 'fieldSlug', in: 'path' } }),
});

const BlockFieldList = z.array(FieldInputSchema).min(1).max(MAX_BLOCK_FIELDS);

export const BlockTypeSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    label: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable(),
    activeVersion: z.number().int(),
    fields: z.array(FieldDefinitionSchema).openapi({ description: 'Fields of the active version' }),
    versions: z.array(
      z.object({
        version: z.number().int(),
        label: z.string(),
        fields: z.array(FieldDefinitionSchema),
        active: z.boolean(),
        createdAt: z.string(),
      }),
    ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('BlockType');

export const CreateBlockTypeBody = z
  .object({
    slug: SlugParam,
    label: SCHEMA_LABEL,
    description: SCHEMA_DESCRIPTION.optional(),
    icon: SCHEMA_ICON.optional(),
    fields: BlockFieldList,
  })
  .strict()
  .openapi('CreateBlockTypeRequest');

export const UpdateBlockTypeBody = z
  .object({
    label: SCHEMA_LABEL.optional(),
    description: SCHEMA_DESCRIPTION.optional(),
    icon: SCHEMA_ICON.optional(),
    fields: BlockFieldList.optional().openapi({ description: 'A changed field list is stored as a new version' }),
    activate: z.boolean().optional().openapi({ description: 'Make the new version active at once (default true)' }),
  })
  .strict()
  .openapi('UpdateBlockTypeRequest');

export const BlockTypeVersionParams = z.object({
  slug: SlugParam.openapi({ param: { name: 'slug', in: 'path' } }),
  version: z.coerce
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: 'version', in: 'path' }, type: 'integer' }),
});

export const OrphanSchema = z
  .object({
    slug: z.string(),
    table: z.string(),
    rowCount: z.number().int(),
    columns: z.array(z.object({ name: z.string(), sqlType: z.string(), fieldType: z.enum(FIELD_TYPES) })),
    missingSystemColumns: z.array(z.string()),
  })
  .openapi('OrphanedTable');

export const RegisterOrphanBody = z
  .object({
    label: SCHEMA_LABEL.optional(),
    labelSingular: SCHEMA_LABEL.optional(),
    supports: Supports.optional(),
    fieldTypes: z.record(z.string(), z.enum(FIELD_TYPES)).optional(),
  })
  .strict()
  .openapi('RegisterOrphanRequest');

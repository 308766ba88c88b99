import type { ColumnKind } from '../../db/dialect.js';

/** The 17 field types (spec 2, "Field types"). */
export const FIELD_TYPES = [
  'string',
  'text',
  'url',
  'number',
  'integer',
  'boolean',
  'datetime',
  'select',
  'multiSelect',
  'portableText',
  'image',
  'file',
  'reference',
  'json',
  'slug',
  'repeater',
  'blocks',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

/** A field as stored and returned by the schema API (without ids and timestamps). */
export interface FieldDefinition {
  slug: string;
  label: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  searchable: boolean;
  indexed: boolean;
  translatable: boolean;
  defaultValue?: unknown;
  validation?: Record<string, unknown>;
  widget?: string;
  options?: Record<string, unknown>;
  sortOrder?: number;
}

/** Types that may set `indexed` (and so be used in orderBy and fieldFilters). */
export const INDEXABLE_TYPES: ReadonlySet<FieldType> = new Set([
  'string',
  'url',
  'number',
  'integer',
  'boolean',
  'datetime',
  'select',
  'reference',
  'slug',
]);

/** Storage kind of each type's column. */
export const COLUMN_KIND: Record<FieldType, ColumnKind> = {
  string: 'text',
  text: 'text',
  url: 'text',
  number: 'real',
  integer: 'integer',
  boolean: 'boolean',
  datetime: 'text',
  select: 'text',
  multiSelect: 'json',
  portableText: 'json',
  image: 'json',
  file: 'json',
  reference: 'text',
  json: 'json',
  slug: 'text',
  repeater: 'json',
  blocks: 'json',
};

/** A reference field bound to a relation keeps its links in the links table, not a column. */
export function isRelationBound(def: Pick<FieldDefinition, 'type' | 'validation'>): boolean {
  if (def.type !== 'reference') return false;
  const v = def.validation ?? {};
  return typeof v.targetCollection === 'string' || typeof v.relation === 'string';
}

/** Field slugs that collide with system columns or response keys. */
export const RESERVED_FIELD_SLUGS: ReadonlySet<string> = new Set([
  'id',
  'slug',
  'status',
  'author_id',
  'primary_byline_id',
  'created_at',
  'updated_at',
  'published_at',
  'scheduled_at',
  'deleted_at',
  'version',
  'live_revision_id',
  'draft_revision_id',
  'terms',
  'bylines',
  'byline',
  // system columns the spec does not list but every entry table has
  'locale',
  'translation_group',
]);

export const SLUG_PATTERN = /^[a-z][a-z0-9_]*$/;

import type { FieldType } from '../api/content';

/** The 17 field types, described for people choosing one, and which common flags each allows (as the service rules). */
export const FIELD_TYPES: Array<{ type: FieldType; label: string; hint: string }> = [
  { type: 'string', label: 'Text (one line)', hint: 'Titles, names, short labels' },
  { type: 'text', label: 'Text (several lines)', hint: 'Summaries, plain paragraphs' },
  { type: 'portableText', label: 'Rich text', hint: 'Headings, lists, links, images, blocks (Portable Text)' },
  { type: 'slug', label: 'Slug', hint: 'Text used in addresses; often unique' },
  { type: 'url', label: 'Link', hint: 'https://…, mailto:, tel:, /path or #anchor' },
  { type: 'number', label: 'Number', hint: 'Decimal number' },
  { type: 'integer', label: 'Whole number', hint: 'Counts, positions' },
  { type: 'boolean', label: 'Yes / no', hint: 'A switch' },
  { type: 'datetime', label: 'Date and time', hint: 'An instant, stored in UTC' },
  { type: 'select', label: 'Choice', hint: 'One of a list of options' },
  { type: 'multiSelect', label: 'Multiple choice', hint: 'Several of a list of options' },
  { type: 'image', label: 'Image', hint: 'From the media library' },
  { type: 'file', label: 'File', hint: 'From the media library' },
  { type: 'reference', label: 'Reference', hint: 'Links to entries of a collection' },
  { type: 'json', label: 'JSON', hint: 'Any structured data' },
  { type: 'repeater', label: 'Repeater', hint: 'Rows of simple sub-fields' },
  { type: 'blocks', label: 'Blocks', hint: 'A list of typed, versioned blocks' },
];

export const typeLabel = (t: string) => FIELD_TYPES.find((x) => x.type === t)?.label ?? t;

export const INDEXABLE = new Set<FieldType>([
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
export const SEARCHABLE = new Set<FieldType>([
  'string',
  'text',
  'url',
  'slug',
  'select',
  'multiSelect',
  'portableText',
]);
export const JSON_STORED = new Set<FieldType>([
  'multiSelect',
  'portableText',
  'image',
  'file',
  'json',
  'repeater',
  'blocks',
]);
export const SUB_FIELD_TYPES: FieldType[] = [
  'string',
  'text',
  'url',
  'number',
  'integer',
  'boolean',
  'datetime',
  'select',
  'image',
];
/** Block type fields: no reference, json, slug or nested blocks. */
export const BLOCK_FIELD_TYPES = FIELD_TYPES.map((t) => t.type).filter(
  (t) => !['reference', 'json', 'slug', 'blocks'].includes(t),
);

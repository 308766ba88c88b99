import type { FieldDefinition, FieldType } from '../../../src/services/fields/index.js';

/** A field definition with the documented defaults; `extra` overrides any property. */
export function field(type: FieldType, extra: Partial<FieldDefinition> = {}): FieldDefinition {
  return {
    slug: extra.slug ?? 'f',
    label: extra.label ?? 'F',
    type,
    required: false,
    unique: false,
    searchable: false,
    indexed: false,
    translatable: true,
    ...extra,
  };
}

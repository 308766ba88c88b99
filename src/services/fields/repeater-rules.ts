/** Definition rules for repeater fields and their sub-fields (spec 2, "repeater rules"). */
import { type IssuePath, type IssueSink, isPlainObject, report } from './issue.js';
import { isSlug, itemCountRules, readKey, vpath } from './rule-helpers.js';
import type { FieldDefinition, FieldType } from './types.js';

/** Repeater sub-field types: flat values only, no nesting and nothing that needs its own table. */
export const SUB_FIELD_TYPES: ReadonlySet<FieldType> = new Set<FieldType>([
  'string',
  'text',
  'url',
  'number',
  'integer',
  'boolean',
  'datetime',
  'select',
  'image',
]);

const SUB_FIELD_KEYS = new Set(['slug', 'label', 'type', 'required', 'options']);

/** The validation keys of a repeater: at least one sub-field, minItems, maxItems. */
export function repeaterRules(v: Record<string, unknown>, sink: IssueSink): void {
  itemCountRules(v, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, sink);
  const subFields = readKey(v, 'subFields');
  if (!Array.isArray(subFields) || subFields.length === 0) {
    report(
      sink,
      vpath('subFields'),
      'invalid_validation',
      'subFields must be a non-empty array of sub-field definitions',
    );
    return;
  }
  const seen = new Set<string>();
  subFields.forEach((sub, i) => {
    subFieldRules(sub, vpath('subFields', i), sink);
    if (isPlainObject(sub) && typeof sub.slug === 'string') {
      if (seen.has(sub.slug))
        report(sink, vpath('subFields', i, 'slug'), 'duplicate', `sub-field slug "${sub.slug}" is used twice`);
      seen.add(sub.slug);
    }
  });
}

function subFieldRules(sub: unknown, path: IssuePath, sink: IssueSink): void {
  if (!isPlainObject(sub)) {
    report(sink, path, 'invalid_type', 'a sub-field must be an object with slug, label and type');
    return;
  }
  for (const key of Object.keys(sub)) {
    if (!SUB_FIELD_KEYS.has(key)) {
      report(
        sink,
        [...path, key],
        'unknown_key',
        `sub-fields take only slug, label, type, required and options, not ${key}`,
      );
    }
  }
  if (typeof sub.slug !== 'string' || !isSlug(sub.slug)) {
    report(
      sink,
      [...path, 'slug'],
      'invalid_validation',
      'sub-field slug must be a slug (lowercase letters, digits, underscores)',
    );
  }
  if (typeof sub.label !== 'string' || sub.label.trim() === '' || sub.label.length > 200) {
    report(
      sink,
      [...path, 'label'],
      'invalid_validation',
      'sub-field label must be a non-empty string of at most 200 characters',
    );
  }
  if (typeof sub.type !== 'string' || !SUB_FIELD_TYPES.has(sub.type as FieldType)) {
    const allowed = [...SUB_FIELD_TYPES].join(', ');
    report(
      sink,
      [...path, 'type'],
      'invalid_validation',
      `sub-field type must be one of ${allowed}; got ${JSON.stringify(sub.type)}`,
    );
  }
  if (sub.required !== undefined && typeof sub.required !== 'boolean') {
    report(sink, [...path, 'required'], 'invalid_validation', 'sub-field required must be a boolean');
  }
  if (sub.options === undefined) return;
  if (sub.type !== 'select') {
    report(sink, [...path, 'options'], 'not_allowed', 'only a select sub-field takes options');
    return;
  }
  const options = sub.options;
  const valid =
    Array.isArray(options) &&
    options.length > 0 &&
    options.every((o) => typeof o === 'string' && o.trim() !== '') &&
    new Set(options).size === options.length;
  if (!valid)
    report(
      sink,
      [...path, 'options'],
      'invalid_validation',
      'options must be a non-empty array of unique non-empty strings',
    );
}

const subFieldCache = new WeakMap<object, FieldDefinition[]>();

/** A repeater's sub-fields as field definitions, so rows are checked by the same value rules. */
export function subFieldDefinitions(def: FieldDefinition): FieldDefinition[] {
  const raw = readKey(def.validation, 'subFields');
  if (!Array.isArray(raw)) return [];
  const cached = subFieldCache.get(raw);
  if (cached) return cached;
  const defs = raw.filter(isPlainObject).map(
    (sub): FieldDefinition => ({
      slug: String(sub.slug),
      label: String(sub.label),
      type: sub.type as FieldType,
      required: sub.required === true,
      unique: false,
      searchable: false,
      indexed: false,
      translatable: true,
      ...(Array.isArray(sub.options) ? { validation: { options: sub.options } } : {}),
    }),
  );
  subFieldCache.set(raw, defs);
  return defs;
}

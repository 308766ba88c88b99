/**
 * Per-type rules for a field's `validation` and `options` objects (spec 2, "Field types",
 * "reference rules", "repeater rules", "blocks rules"). Pure checks that append to a sink.
 */
import { type IssuePath, type IssueSink, isPlainObject, kindOf, report } from './issue.js';
import { type FieldDefinition, type FieldType, SLUG_PATTERN } from './types.js';

/** The validation keys each type understands; anything else is reported, naming these. */
export const VALIDATION_KEYS: Readonly<Record<FieldType, readonly string[]>> = {
  string: ['minLength', 'maxLength', 'pattern'],
  text: ['minLength', 'maxLength', 'pattern'],
  // The spec names no keys for slug; the string keys are accepted because a slug is a string.
  slug: ['minLength', 'maxLength', 'pattern'],
  url: [],
  number: ['min', 'max'],
  integer: ['min', 'max'],
  boolean: [],
  datetime: [],
  select: ['options'],
  multiSelect: ['options'],
  portableText: [],
  image: ['allowedMimeTypes'],
  file: ['allowedMimeTypes'],
  reference: ['targetCollection', 'multiple', 'relation', 'relationSide'],
  json: [],
  repeater: ['subFields', 'minItems', 'maxItems'],
  blocks: ['allowedTypes', 'retiredTypes', 'minItems', 'maxItems'],
};

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

/** Spec 2, "Limits": a blocks field holds at most 100 blocks, whatever maxItems says. */
export const BLOCKS_MAX_ITEMS = 100;

/** type/subtype with RFC 6838 characters; no wildcards, no parameters. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/** Reads a validation/options key; null counts as "not set" so forms can clear a rule by sending null. */
export function readKey(obj: Record<string, unknown> | undefined, key: string): unknown {
  const value = obj?.[key];
  return value === null ? undefined : value;
}

const patternCache = new Map<string, RegExp>();

/**
 * A `pattern` must match the whole value, like the HTML `pattern` attribute the editor uses, so
 * the browser and the server agree. Throws SyntaxError for an invalid pattern.
 */
export function compilePattern(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) {
    re = new RegExp(`^(?:${pattern})$`, 'u');
    if (patternCache.size > 500) patternCache.clear();
    patternCache.set(pattern, re);
  }
  return re;
}

function vpath(key: string, ...rest: (string | number)[]): IssuePath {
  return ['validation', key, ...rest];
}

function intKey(obj: Record<string, unknown>, key: string, min: number, sink: IssueSink, path = vpath(key)) {
  const value = readKey(obj, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    report(sink, path, 'invalid_validation', `${key} must be an integer of at least ${min}, got ${kindOf(value)}`);
    return undefined;
  }
  return value;
}

function boundsOrder(min: number | undefined, max: number | undefined, names: [string, string], sink: IssueSink) {
  if (min !== undefined && max !== undefined && min > max) {
    report(sink, vpath(names[0]), 'invalid_validation', `${names[0]} must not be greater than ${names[1]}`);
  }
}

function stringListKey(
  obj: Record<string, unknown>,
  key: string,
  sink: IssueSink,
  item: { test: (s: string) => boolean; what: string; allowEmpty?: boolean; fold?: boolean },
): string[] | undefined {
  const value = readKey(obj, key);
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || (!item.allowEmpty && value.length === 0)) {
    const need = item.allowEmpty ? 'an array' : 'a non-empty array';
    report(sink, vpath(key), 'invalid_validation', `${key} must be ${need} of ${item.what}`);
    return undefined;
  }
  const seen = new Set<string>();
  value.forEach((entry, i) => {
    if (typeof entry !== 'string' || !item.test(entry)) {
      report(sink, vpath(key, i), 'invalid_validation', `${key}[${i}] must be ${item.what}`);
      return;
    }
    const k = item.fold ? entry.toLowerCase() : entry;
    if (seen.has(k)) report(sink, vpath(key, i), 'duplicate', `${key} lists ${JSON.stringify(entry)} more than once`);
    seen.add(k);
  });
  return value.filter((e): e is string => typeof e === 'string');
}

const isSlug = (s: string) => SLUG_PATTERN.test(s) && s.length <= 63;
const SLUG_ITEM = { test: isSlug, what: 'a slug (lowercase letters, digits, underscores)' };

/** Checks `def.validation` against the rules of `def.type`. */
export function validationIssues(def: FieldDefinition, sink: IssueSink): void {
  if (def.validation === undefined) {
    if (def.type === 'repeater') report(sink, ['validation'], 'required', 'a repeater needs validation.subFields');
    if (def.type === 'blocks') report(sink, ['validation'], 'required', 'a blocks field needs validation.allowedTypes');
    return;
  }
  if (!isPlainObject(def.validation)) {
    report(sink, ['validation'], 'invalid_type', 'validation must be an object');
    return;
  }
  const v = def.validation;
  const allowed = VALIDATION_KEYS[def.type];
  for (const key of Object.keys(v)) {
    if (allowed.includes(key)) continue;
    const hint = allowed.length ? `allowed: ${allowed.join(', ')}` : `${def.type} fields take no validation keys`;
    report(
      sink,
      vpath(key),
      'unknown_validation_key',
      `validation.${key} is not supported for ${def.type} fields (${hint})`,
    );
  }
  switch (def.type) {
    case 'string':
    case 'text':
    case 'slug':
      lengthRules(v, sink);
      return;
    case 'number':
    case 'integer':
      numberRules(v, def.type === 'integer', sink);
      return;
    case 'select':
    case 'multiSelect':
      stringListKey(v, 'options', sink, { test: (s) => s.trim() !== '', what: 'unique non-empty strings' });
      return;
    case 'image':
    case 'file':
      stringListKey(v, 'allowedMimeTypes', sink, {
        test: (s) => MIME_TYPE.test(s),
        what: 'exact MIME types such as image/png',
        fold: true,
      });
      return;
    case 'reference':
      referenceRules(v, sink);
      return;
    case 'repeater':
      repeaterRules(v, sink);
      return;
    case 'blocks':
      blocksRules(v, sink);
      return;
    default:
      return;
  }
}

function lengthRules(v: Record<string, unknown>, sink: IssueSink): void {
  const min = intKey(v, 'minLength', 0, sink);
  const max = intKey(v, 'maxLength', 0, sink);
  boundsOrder(min, max, ['minLength', 'maxLength'], sink);
  const pattern = readKey(v, 'pattern');
  if (pattern === undefined) return;
  if (typeof pattern !== 'string' || pattern === '') {
    report(sink, vpath('pattern'), 'invalid_validation', 'pattern must be a non-empty regular expression string');
    return;
  }
  try {
    compilePattern(pattern);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    report(sink, vpath('pattern'), 'invalid_validation', `pattern is not a valid regular expression: ${why}`);
  }
}

function numberRules(v: Record<string, unknown>, integer: boolean, sink: IssueSink): void {
  const bound = (key: string): number | undefined => {
    const value = readKey(v, key);
    if (value === undefined) return undefined;
    const ok = typeof value === 'number' && (integer ? Number.isSafeInteger(value) : Number.isFinite(value));
    if (ok) return value;
    report(sink, vpath(key), 'invalid_validation', `${key} must be ${integer ? 'an integer' : 'a finite number'}`);
    return undefined;
  };
  boundsOrder(bound('min'), bound('max'), ['min', 'max'], sink);
}

function referenceRules(v: Record<string, unknown>, sink: IssueSink): void {
  const target = readKey(v, 'targetCollection');
  const relation = readKey(v, 'relation');
  for (const [key, value] of [
    ['targetCollection', target],
    ['relation', relation],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || !isSlug(value))) {
      report(sink, vpath(key), 'invalid_validation', `${key} must be a slug`);
    }
  }
  const multiple = readKey(v, 'multiple');
  if (multiple !== undefined) {
    if (typeof multiple !== 'boolean')
      report(sink, vpath('multiple'), 'invalid_validation', 'multiple must be a boolean');
    else if (target === undefined) {
      report(sink, vpath('multiple'), 'not_allowed', 'multiple is read only together with targetCollection');
    }
  }
  const side = readKey(v, 'relationSide');
  if (side !== undefined) {
    if (side !== 'parent' && side !== 'child') {
      report(sink, vpath('relationSide'), 'invalid_validation', 'relationSide must be "parent" or "child"');
    } else if (relation === undefined) {
      report(sink, vpath('relationSide'), 'not_allowed', 'relationSide is set only together with relation');
    }
  }
}

function itemCountRules(v: Record<string, unknown>, minMax: number, maxMax: number, sink: IssueSink): void {
  const min = intKey(v, 'minItems', 0, sink);
  const max = intKey(v, 'maxItems', 1, sink);
  if (min !== undefined && min > minMax)
    report(sink, vpath('minItems'), 'invalid_validation', `minItems is at most ${minMax}`);
  if (max !== undefined && max > maxMax)
    report(sink, vpath('maxItems'), 'invalid_validation', `maxItems is at most ${maxMax}`);
  if (min !== undefined && max !== undefined && max < min) {
    report(sink, vpath('maxItems'), 'invalid_validation', 'maxItems must not be less than minItems');
  }
}

function repeaterRules(v: Record<string, unknown>, sink: IssueSink): void {
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

function blocksRules(v: Record<string, unknown>, sink: IssueSink): void {
  itemCountRules(v, BLOCKS_MAX_ITEMS, BLOCKS_MAX_ITEMS, sink);
  const allowed = stringListKey(v, 'allowedTypes', sink, { ...SLUG_ITEM, allowEmpty: true });
  if (readKey(v, 'allowedTypes') === undefined) {
    report(
      sink,
      vpath('allowedTypes'),
      'required',
      'a blocks field needs validation.allowedTypes (an ordered list of block type slugs)',
    );
  }
  const retired = stringListKey(v, 'retiredTypes', sink, { ...SLUG_ITEM, allowEmpty: true });
  for (const slug of retired ?? []) {
    if (allowed?.includes(slug)) {
      report(
        sink,
        vpath('retiredTypes'),
        'invalid_validation',
        `block type "${slug}" cannot be both allowed and retired`,
      );
    }
  }
}

/** Checks the `options` (widget configuration) keys that carry meaning for the field's type. */
export function optionsIssues(def: FieldDefinition, relationBound: boolean, sink: IssueSink): void {
  if (def.options === undefined) return;
  if (!isPlainObject(def.options)) {
    report(sink, ['options'], 'invalid_type', 'options must be an object');
    return;
  }
  const o = def.options;
  if (def.type === 'text') intKey(o, 'rows', 1, sink, ['options', 'rows']);
  if (def.type === 'image' && readKey(o, 'darkVariant') !== undefined && typeof o.darkVariant !== 'boolean') {
    report(sink, ['options', 'darkVariant'], 'invalid_type', 'options.darkVariant must be a boolean');
  }
  if (def.type === 'reference' && readKey(o, 'allowMultiple') !== undefined) {
    if (typeof o.allowMultiple !== 'boolean') {
      report(sink, ['options', 'allowMultiple'], 'invalid_type', 'options.allowMultiple must be a boolean');
    } else if (relationBound) {
      report(
        sink,
        ['options', 'allowMultiple'],
        'not_allowed',
        'options.allowMultiple applies only to a reference without targetCollection or relation; use validation.multiple',
      );
    }
  }
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

/**
 * Per-type rules for a field's `validation` and `options` objects (spec 2, "Field types",
 * "reference rules", "repeater rules", "blocks rules"). Pure checks that append to a sink.
 */
import { blocksRules } from './blocks-rules.js';
import { type IssueSink, isPlainObject, report } from './issue.js';
import { compilePattern, PatternError } from './pattern.js';
import { repeaterRules } from './repeater-rules.js';
import { boundsOrder, intKey, isSlug, readKey, stringListKey, vpath } from './rule-helpers.js';
import type { FieldDefinition, FieldType } from './types.js';

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

/** type/subtype with RFC 6838 characters; no wildcards, no parameters. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

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
    if (!(err instanceof PatternError)) throw err;
    report(sink, vpath('pattern'), 'invalid_validation', err.message);
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

/** Value checks for the single-column types (text, numbers, choices, datetime, legacy references). */
import { normalizeDatetime } from './datetime.js';
import { type IssuePath, kindOf, listForMessage, report } from './issue.js';
import { type CompiledPattern, compilePattern } from './pattern.js';
import { readKey } from './rule-helpers.js';
import type { FieldDefinition } from './types.js';
import { checkUrl } from './url.js';
import type { ValueContext } from './value-context.js';

export type ValueChecker = (field: FieldDefinition, value: unknown, path: IssuePath, ctx: ValueContext) => unknown;

/** Spec 1, "Limits": at most 1000 entry IDs per reference field in a write. */
export const MAX_REFERENCE_IDS = 1000;

export function typeIssue(ctx: ValueContext, path: IssuePath, expected: string, value: unknown): void {
  report(ctx.sink, path, 'invalid_type', `expected ${expected}, got ${kindOf(value)}`);
}

/** Length in Unicode code points, so an emoji counts as one character, as the editor shows it. */
function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function numberKey(obj: Record<string, unknown> | undefined, key: string): number | undefined {
  const v = readKey(obj, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** string, text and slug. An empty string skips minLength and pattern, as in HTML forms; required catches it. */
export const checkString: ValueChecker = (field, value, path, ctx) => {
  if (typeof value !== 'string') {
    typeIssue(ctx, path, 'a string', value);
    return value;
  }
  if (value === '') return value;
  const min = numberKey(field.validation, 'minLength');
  const max = numberKey(field.validation, 'maxLength');
  // Counting code points walks the whole text: only when a bound is set.
  const length = min !== undefined || max !== undefined ? codePointLength(value) : 0;
  if (min !== undefined && length < min) {
    report(ctx.sink, path, 'too_small', `must be at least ${min} characters long (has ${length})`);
  }
  if (max !== undefined && length > max) {
    report(ctx.sink, path, 'too_big', `must be at most ${max} characters long (has ${length})`);
  }
  const pattern = readKey(field.validation, 'pattern');
  if (typeof pattern === 'string') {
    let re: CompiledPattern | undefined;
    try {
      re = compilePattern(pattern);
    } catch {
      // Stored before patterns had to run in linear time (or otherwise invalid): never run it on a
      // backtracking engine, and never let an unchecked value through either.
      report(
        ctx.sink,
        path,
        'invalid_format',
        `cannot be checked: the field's pattern ${pattern} is not supported; an Admin must change it`,
      );
    }
    if (re && !re.matches(value)) report(ctx.sink, path, 'invalid_format', `does not match the pattern ${pattern}`);
  }
  return value;
};

/** An empty string means "no link" and is stored as null. */
export const checkUrlValue: ValueChecker = (_field, value, path, ctx) => {
  if (typeof value !== 'string') {
    typeIssue(ctx, path, 'a URL string', value);
    return value;
  }
  if (value === '') return null;
  const problem = checkUrl(value, { allowSchemeless: ctx.options.allowSchemelessUrls });
  if (problem) report(ctx.sink, path, 'invalid_url', problem);
  return value;
};

export function numberChecker(integer: boolean): ValueChecker {
  return (field, value, path, ctx) => {
    const ok = typeof value === 'number' && (integer ? Number.isSafeInteger(value) : Number.isFinite(value));
    if (!ok) {
      typeIssue(ctx, path, integer ? 'a whole number (safe integer)' : 'a finite number', value);
      return value;
    }
    const min = numberKey(field.validation, 'min');
    const max = numberKey(field.validation, 'max');
    if (min !== undefined && value < min) report(ctx.sink, path, 'too_small', `must be at least ${min}`);
    if (max !== undefined && value > max) report(ctx.sink, path, 'too_big', `must be at most ${max}`);
    return value;
  };
}

export const checkBoolean: ValueChecker = (_field, value, path, ctx) => {
  if (typeof value !== 'boolean') typeIssue(ctx, path, 'true or false', value);
  return value;
};

/** Stored normalised to UTC milliseconds; an empty string means "no date" and is stored as null. */
export const checkDatetime: ValueChecker = (_field, value, path, ctx) => {
  if (typeof value !== 'string') {
    typeIssue(ctx, path, 'an ISO 8601 date-time string', value);
    return value;
  }
  if (value === '') return null;
  const normalised = normalizeDatetime(value);
  if (normalised === null) {
    report(
      ctx.sink,
      path,
      'invalid_datetime',
      'must be an ISO 8601 date-time with Z or a UTC offset, e.g. 2026-01-02T03:04:05Z or 2026-01-02T05:04:05+02:00',
    );
    return value;
  }
  return normalised;
};

function optionList(field: FieldDefinition): string[] | undefined {
  const options = readKey(field.validation, 'options');
  return Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : undefined;
}

/** An empty string means "nothing chosen" and is stored as null. */
export const checkSelect: ValueChecker = (field, value, path, ctx) => {
  if (typeof value !== 'string') {
    typeIssue(ctx, path, 'a string', value);
    return value;
  }
  if (value === '') return null;
  const options = optionList(field);
  if (options && !options.includes(value)) {
    report(ctx.sink, path, 'invalid_option', `${JSON.stringify(value)} is not one of ${listForMessage(options)}`);
  }
  return value;
};

export const checkMultiSelect: ValueChecker = (field, value, path, ctx) => {
  if (!Array.isArray(value)) {
    typeIssue(ctx, path, 'an array of strings', value);
    return value;
  }
  const options = optionList(field);
  const seen = new Set<string>();
  value.forEach((item, i) => {
    if (typeof item !== 'string') {
      typeIssue(ctx, [...path, i], 'a string', item);
      return;
    }
    if (seen.has(item))
      report(ctx.sink, [...path, i], 'duplicate', `${JSON.stringify(item)} is selected more than once`);
    seen.add(item);
    if (options && !options.includes(item)) {
      report(
        ctx.sink,
        [...path, i],
        'invalid_option',
        `${JSON.stringify(item)} is not one of ${listForMessage(options)}`,
      );
    }
  });
  return value;
};

/**
 * A reference with neither targetCollection nor relation stores one entry ID as text, or with
 * options.allowMultiple an array of IDs (spec 2, reference rule 5). An empty string means none.
 */
export const checkLegacyReference: ValueChecker = (field, value, path, ctx) => {
  if (readKey(field.options, 'allowMultiple') !== true) {
    if (typeof value !== 'string') {
      typeIssue(ctx, path, 'an entry ID string', value);
      return value;
    }
    return value === '' ? null : value;
  }
  if (!Array.isArray(value)) {
    typeIssue(ctx, path, 'an array of entry IDs', value);
    return value;
  }
  if (value.length > MAX_REFERENCE_IDS) {
    report(ctx.sink, path, 'too_big', `at most ${MAX_REFERENCE_IDS} entry IDs per field (got ${value.length})`);
  }
  const seen = new Set<string>();
  value.forEach((id, i) => {
    if (typeof id !== 'string' || id === '') {
      typeIssue(ctx, [...path, i], 'a non-empty entry ID string', id);
      return;
    }
    if (seen.has(id))
      report(ctx.sink, [...path, i], 'duplicate', `entry ID ${JSON.stringify(id)} is listed more than once`);
    seen.add(id);
  });
  return value;
};

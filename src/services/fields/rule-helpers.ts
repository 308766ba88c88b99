/** Small readers and checks shared by the per-type definition rules. */
import { type IssuePath, type IssueSink, kindOf, report } from './issue.js';
import { SLUG_PATTERN } from './types.js';

/** Reads a validation/options key; null counts as "not set" so forms can clear a rule by sending null. */
export function readKey(obj: Record<string, unknown> | undefined, key: string): unknown {
  const value = obj?.[key];
  return value === null ? undefined : value;
}

/** Path of an issue inside `validation`. */
export function vpath(key: string, ...rest: (string | number)[]): IssuePath {
  return ['validation', key, ...rest];
}

/** Reads an optional integer key of at least `min`, reporting anything else. */
export function intKey(obj: Record<string, unknown>, key: string, min: number, sink: IssueSink, path = vpath(key)) {
  const value = readKey(obj, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    report(sink, path, 'invalid_validation', `${key} must be an integer of at least ${min}, got ${kindOf(value)}`);
    return undefined;
  }
  return value;
}

export function boundsOrder(
  min: number | undefined,
  max: number | undefined,
  names: [string, string],
  sink: IssueSink,
) {
  if (min !== undefined && max !== undefined && min > max) {
    report(sink, vpath(names[0]), 'invalid_validation', `${names[0]} must not be greater than ${names[1]}`);
  }
}

/** Reads an optional list of unique strings that each pass `item.test` (compared case-folded with `fold`). */
export function stringListKey(
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

export const isSlug = (s: string) => SLUG_PATTERN.test(s) && s.length <= 63;
export const SLUG_ITEM = { test: isSlug, what: 'a slug (lowercase letters, digits, underscores)' };

/** minItems/maxItems of repeater and blocks fields: minItems >= 0, maxItems >= 1 and >= minItems, both capped. */
export function itemCountRules(v: Record<string, unknown>, minMax: number, maxMax: number, sink: IssueSink): void {
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

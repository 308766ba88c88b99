import type { ValidationIssue } from '../../core/errors.js';

/** Where an issue points: object keys and array indexes from the root of the checked input. */
export type IssuePath = (string | number)[];

/** Collects issues; every check appends instead of throwing so callers see all problems at once. */
export type IssueSink = ValidationIssue[];

export function report(sink: IssueSink, path: IssuePath, code: string, message: string): void {
  sink.push({ path, code, message });
}

/** A JSON-style object: not null, not an array, not a class instance (Date, Map …). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Short description of a value's kind for messages ("expected a string, got an array"). */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Lists allowed values in a message without letting a 500-option select flood it. */
export function listForMessage(values: readonly string[], max = 10): string {
  const shown = values.slice(0, max).map((v) => JSON.stringify(v));
  return values.length > max ? `${shown.join(', ')} … (${values.length} in all)` : shown.join(', ');
}

/** Set equality for string lists, ignoring order and duplicates. */
export function sameStringSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size !== sb.size) return false;
  for (const x of sa) if (!sb.has(x)) return false;
  return true;
}

import { z } from 'zod';
import { issuesError } from './errors.js';
import { isStorableText } from './text.js';

/**
 * Opaque keyset cursors: base64url JSON of the last row's sort key, sent back
 * unchanged. A cursor is client input like any other: it is decoded against
 * the exact tuple its list wrote, so a crafted one is a 400, never a query
 * with an object or a NUL byte in it.
 */
const MAX_CURSOR_LENGTH = 2048;

/** A text sort key (timestamps, slugs, names, IDs). */
export const cursorText = z.string().max(1000).refine(isStorableText);

/** A numeric sort key; PostgreSQL returns bigint and numeric columns as strings, so both forms are accepted. */
export const cursorNumber = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i)])
  .transform(Number)
  .pipe(z.number().finite());

/** The sort key of an integer column: a whole number within ±2^53 (PostgreSQL refuses a bigint beyond its range). */
export const cursorInteger = cursorNumber.pipe(
  z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
);

export const cursorBoolean = z.union([z.boolean(), z.literal(0), z.literal(1)]);

export function encodeCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function invalidCursor() {
  return issuesError('Invalid cursor: send back the nextCursor of the previous page unchanged', [
    { path: ['cursor'], code: 'invalid_cursor', message: 'not a cursor this list produced' },
  ]);
}

export function decodeCursor<const T extends readonly [z.ZodType, ...z.ZodType[]]>(
  cursor: string,
  items: T,
): { [K in keyof T]: z.output<T[K]> } {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const result = z.tuple(items as unknown as [z.ZodType, ...z.ZodType[]]).safeParse(parsed);
  if (!result.success) throw invalidCursor();
  return result.data as { [K in keyof T]: z.output<T[K]> };
}

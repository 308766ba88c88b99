import { validationError } from '../../core/errors.js';

/** Opaque cursors: base64url JSON of the last row's sort key. Clients send them back unchanged. */
export function encodeCursor(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, length: number): unknown[] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === length) return parsed;
  } catch {
    // fall through
  }
  throw validationError('Invalid cursor: send back the nextCursor of the previous page unchanged');
}

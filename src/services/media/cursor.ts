import { validationError } from '../../core/errors.js';
import { isWellFormed } from '../../core/text.js';

/**
 * Opaque keyset cursors: base64url JSON of the last row's sort key. A decoded
 * cursor is checked value by value before it reaches SQL, so a crafted one is
 * the same 400 on SQLite and PostgreSQL.
 */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const NAME_KEY_MAX = 1000;

const invalid = () =>
  validationError('cursor is not valid; send back the nextCursor of the previous page unchanged', {
    issues: [{ path: ['cursor'], code: 'invalid_cursor', message: 'Invalid cursor' }],
  });

function decode(cursor: string): unknown {
  if (cursor.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
}

export const encodeCursor = (a: string, b: string) => Buffer.from(JSON.stringify([a, b])).toString('base64url');

/** Media list position: (created_at, id). */
export function decodeItemCursor(cursor: string): { createdAt: string; id: string } {
  const v = decode(cursor);
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') {
    if (INSTANT.test(v[0]) && ULID.test(v[1])) return { createdAt: v[0], id: v[1] };
  }
  throw invalid();
}

/** Folder list position: (name_key, id). */
export function decodeFolderCursor(cursor: string): { nameKey: string; id: string } {
  const v = decode(cursor);
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') {
    const key = v[0];
    if (key.length <= NAME_KEY_MAX && !key.includes('\u0000') && isWellFormed(key) && ULID.test(v[1])) {
      return { nameKey: key, id: v[1] };
    }
  }
  throw invalid();
}

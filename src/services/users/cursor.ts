import { validationError } from '../../core/errors.js';

/** Opaque keyset cursor over (created_at, id): base64url JSON the client sends back unchanged. */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') {
      return { createdAt: v[0], id: v[1] };
    }
  } catch {
    // fall through
  }
  throw validationError('cursor is not valid; send back the nextCursor of the previous page unchanged', {
    issues: [{ path: ['cursor'], code: 'invalid_cursor', message: 'Invalid cursor' }],
  });
}

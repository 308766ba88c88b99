import {
  cursorNumber,
  cursorText,
  decodeCursor as decode,
  encodeCursor as encode,
  invalidCursor,
} from '../../core/cursor.js';
import { sha256Hex } from '../../core/ids.js';
import type { Keyset } from './engine.js';

/**
 * Search cursors: the last result of a page (score, collection, entry ID),
 * bound to the query they came from. Opaque to clients; anything that does
 * not decode to exactly this tuple, or comes from another query, is a 400 on
 * `cursor`.
 */
export interface SearchPosition {
  score: number;
  collection: string;
  id: string;
}

export function fingerprint(parts: unknown[]): string {
  return sha256Hex(JSON.stringify(parts)).slice(0, 16);
}

export function encodeCursor(p: SearchPosition, query: string): string {
  return encode([query, p.score, p.collection, p.id]);
}

export function decodeCursor(cursor: string, query: string): SearchPosition {
  const [bound, score, collection, id] = decode(cursor, [cursorText, cursorNumber, cursorText, cursorText]);
  if (bound !== query) throw invalidCursor();
  return { score, collection, id };
}

/** Where one collection's candidates resume after `p` (order: score desc, collection asc, ID asc). */
export function keysetFor(collection: string, p: SearchPosition | null): Keyset | null {
  if (!p) return null;
  if (collection > p.collection) return { score: p.score, tie: 'include', id: p.id };
  if (collection < p.collection) return { score: p.score, tie: 'exclude', id: p.id };
  return { score: p.score, tie: 'after', id: p.id };
}

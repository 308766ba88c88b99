import { CmsError } from '../../core/errors.js';
import type { EntryRow } from './model.js';

/** `_rev` is an opaque token derived from the row version. */
export function revOf(row: Pick<EntryRow, 'id' | 'version'>): string {
  return Buffer.from(`${row.id}.${row.version}`).toString('base64url');
}

/** A stale `_rev` is a 409 and changes nothing. */
export function checkRev(row: Pick<EntryRow, 'id' | 'version'>, rev: string | undefined | null): void {
  if (rev === undefined || rev === null) return;
  if (rev !== revOf(row)) {
    throw new CmsError('REV_CONFLICT', 'The entry changed since it was read; reload it and try again', {
      currentRev: revOf(row),
    });
  }
}

export const staleWrite = () =>
  new CmsError('REV_CONFLICT', 'The entry changed while this write was in progress; reload it and try again');

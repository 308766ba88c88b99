import { fitted, refuse, ruleProblem, type StoredRow, type StoredVerdict, storedInstants } from '../stored-record.js';
import { cleanFilename } from './files.js';
import { cleanName } from './folders.js';
import { extensionFor, mimeAllowed, mimeMismatch, normaliseMime, sniffMime } from './mime.js';
import { nameKey } from './rows.js';

/**
 * A library item from elsewhere (a site package), judged by the rules an
 * upload applies to what it records: a type this site's library accepts
 * (`mediaAllowedTypes`), a clean display name (its key derived from it).
 */
export function storedMedia(row: StoredRow, allowedTypes: readonly string[]): StoredVerdict {
  // Only finished items are exported; a pending one would be swept, its bytes with it.
  if (row.status !== 'ready') return refuse(row, `status "${String(row.status)}" is not a library item's`);
  const mime = normaliseMime(typeof row.mime_type === 'string' ? row.mime_type : '');
  if (!mime || mime !== row.mime_type) return refuse(row, `mime_type "${String(row.mime_type)}" is not a media type`);
  if (!mimeAllowed(mime, allowedTypes)) return refuse(row, `mime_type ${mime} is not accepted by this site's library`);
  for (const col of ['size', 'width', 'height'] as const) {
    const v = row[col];
    if (v === null && col !== 'size') continue;
    if (typeof v !== 'number' || v < 0) return refuse(row, `${col} must be a whole number of zero or more`);
  }
  // The focal point (migration 020): both fractions of 0 to 1, or neither (the centre). A package
  // from before it has neither column; its derivatives are never in a package (rebuilt on demand).
  const fx = row.focal_x ?? null;
  const fy = row.focal_y ?? null;
  if ((fx === null) !== (fy === null)) return refuse(row, 'focal_x and focal_y must both be set or both be null');
  for (const v of [fx, fy]) {
    if (v !== null && (typeof v !== 'number' || !(v >= 0 && v <= 1))) {
      return refuse(row, 'focal_x and focal_y must be fractions of 0 to 1');
    }
  }
  const filename = cleanFilename(String(row.filename ?? ''), extensionFor(mime));
  return fitted(row, { ...row, filename, name_key: nameKey(filename) }, 'media_filename_cleaned');
}

/**
 * The bytes of an item from elsewhere, judged as an upload's are: the type
 * they show must not contradict the recorded one (an "image" that is an HTML
 * page). `head` is the start of the file; `complete` when it is all of it.
 */
export async function storedMediaBytesProblem(row: StoredRow, head: Buffer, complete: boolean): Promise<string | null> {
  const claimed = normaliseMime(String(row.mime_type ?? ''));
  const sniffed = await sniffMime(head, complete, claimed);
  return mimeMismatch(claimed, sniffed) ? `the file's bytes are ${sniffed}, not the recorded ${claimed}` : null;
}

export const MEDIA_FOLDER_NORMALISED = 'media_folder_normalised';

/**
 * A library folder from elsewhere (a site package), named by the rule a
 * folder write applies (trimmed, 1 to 200 characters, no control
 * characters); its key is derived from the name as a write derives it. A
 * change is reported as `media_folder_normalised`.
 */
export function storedMediaFolder(row: StoredRow): StoredVerdict {
  const problem = ruleProblem(() => cleanName(String(row.name ?? '')));
  if (problem) return refuse(row, problem);
  const name = cleanName(String(row.name));
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, name, name_key: nameKey(name), ...instants.values }, MEDIA_FOLDER_NORMALISED);
}

import type { CmsConfig } from '../../../core/config.js';
import { CmsError } from '../../../core/errors.js';

/**
 * How much of a WordPress export the reader takes in: the XML as a whole
 * (after gunzip, so a small compressed file cannot expand without bound) and
 * each record in it (so one element cannot grow a string without bound).
 * Every reader of an export — analyze, execute, the command line — is given
 * these; passing a limit stops the reading at once.
 */
export interface WxrLimits {
  /** Bytes of XML: a plain file's size, or what a `.xml.gz` decompresses to. */
  maxExportBytes: number;
  /** Characters of one record (an item with everything in it, an author, a term) or any one element or token. */
  maxElementBytes: number;
}

export function wxrLimits(config: Pick<CmsConfig, 'importMaxExportBytes' | 'importMaxElementBytes'>): WxrLimits {
  return { maxExportBytes: config.importMaxExportBytes, maxElementBytes: config.importMaxElementBytes };
}

const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/**
 * The export passed the export limit: as XML read (`compressed` says whether it
 * came out of a gunzip), or as an upload's bytes (`upload`, checked before
 * they are spooled or read).
 */
export function exportTooLarge(
  maxBytes: number,
  where: { bytesRead: number; compressed: boolean } | { upload: true; bytesRead?: number },
): CmsError {
  const what =
    'upload' in where
      ? 'The uploaded export is larger than'
      : where.compressed
        ? 'The compressed export decompresses to more than'
        : 'The export is larger than';
  const message = `${what} ${maxBytes} bytes (${mib(maxBytes)})${'upload' in where ? '' : ' of XML'}, the limit set by importMaxExportBytes (CMS_IMPORT_MAX_EXPORT_BYTES)`;
  return new CmsError('PAYLOAD_TOO_LARGE', message, {
    limit: 'importMaxExportBytes',
    env: 'CMS_IMPORT_MAX_EXPORT_BYTES',
    maxBytes,
    ...where,
    issues: [{ path: ['file'], code: 'too_big', message }],
  });
}

/** Where in the export a record or element passed the element limit. */
export interface RecordPlace {
  /** The element being read (innermost open element). */
  element: string;
  /** The channel's child it is part of (`item`, `wp:author`, `wp:term` …), or `channel` outside one. */
  record: string;
  /** 1 for the file's first record of that name. */
  recordNumber: number;
  /** The item's title when it was read before the limit was passed. */
  title?: string;
  /** Bytes of XML read when the reading stopped. */
  bytesRead: number;
}

export function recordTooLarge(maxBytes: number, place: RecordPlace): CmsError {
  const where =
    place.record === 'channel'
      ? `<${place.element}>`
      : `<${place.element}> of <${place.record}> number ${place.recordNumber}${place.title ? ` ("${place.title}")` : ''}`;
  const message = `The export's ${where} is larger than ${maxBytes} bytes (${mib(maxBytes)}), the limit set by importMaxElementBytes (CMS_IMPORT_MAX_ELEMENT_BYTES)`;
  return new CmsError('PAYLOAD_TOO_LARGE', message, {
    limit: 'importMaxElementBytes',
    env: 'CMS_IMPORT_MAX_ELEMENT_BYTES',
    maxBytes,
    ...place,
    issues: [{ path: ['file'], code: 'too_big', message }],
  });
}

import { toWellFormed } from '../../core/text.js';
import type { ObjectHeaders } from '../../storage/index.js';
import { isActive, servedInline } from './mime.js';

export const MAX_FILENAME = 255;

/**
 * A display name from what the client sent: the last path segment (browsers
 * on Windows may send `C:\fakepath\…`), NFC, without control characters,
 * at most 255 characters; a fallback when nothing is left.
 */
export function cleanFilename(raw: string | null | undefined, ext: string): string {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = last
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim();
  return (toWellFormed(clean) || `upload.${ext}`).slice(0, MAX_FILENAME);
}

/** RFC 6266 `Content-Disposition` with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Bytes under a storage key never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** How a stored object is served: scripts-capable types (SVG, HTML) only ever as downloads. */
export function objectHeaders(mime: string, filename: string, cacheControl = IMMUTABLE): ObjectHeaders {
  const type = mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime;
  return {
    contentType: type,
    contentDisposition: contentDisposition(servedInline(mime) && !isActive(mime) ? 'inline' : 'attachment', filename),
    cacheControl,
  };
}

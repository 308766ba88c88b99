import { thumbHashToDataURL } from 'thumbhash';

/** Formatting and matching helpers shared by the library screen and the picker. */

const UNITS = ['bytes', 'KB', 'MB', 'GB'];

export function formatBytes(n: number): string {
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

/** `image/*` matches the family, anything else exactly; an empty list accepts everything. */
export function mimeMatches(mime: string, accept: readonly string[] | undefined): boolean {
  if (!accept?.length) return true;
  return accept.some((a) => (a.endsWith('/*') ? mime.startsWith(a.slice(0, -1)) : mime === a));
}

/** Shown as images in the browser (SVG too: an <img> never runs its scripts). */
export const isPreviewable = (mime: string) => /^image\/(jpeg|png|gif|webp|avif|svg\+xml|bmp)$/.test(mime);

/** A short label for a file type: the extension-like part of its MIME type. */
export function typeLabel(mime: string): string {
  const sub = mime.split('/')[1] ?? mime;
  const known: Record<string, string> = {
    jpeg: 'JPEG',
    'svg+xml': 'SVG',
    'vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
    'vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'XLSX',
    'vnd.openxmlformats-officedocument.presentationml.presentation': 'PPTX',
    plain: 'TXT',
  };
  return (
    known[sub] ??
    sub
      .replace(/^(x-|vnd\.)/, '')
      .split(/[.+]/)[0]
      .toUpperCase()
      .slice(0, 6)
  );
}

const placeholders = new Map<string, string>();

/** The ThumbHash placeholder as a data URL (memoised: lists re-render often). */
export function placeholderUrl(hash: string | null): string | undefined {
  if (!hash) return undefined;
  let url = placeholders.get(hash);
  if (!url) {
    try {
      url = thumbHashToDataURL(Uint8Array.from(atob(hash), (c) => c.charCodeAt(0)));
    } catch {
      return undefined;
    }
    placeholders.set(hash, url);
  }
  return url;
}

/** Type filters the library offers, as MIME patterns for `mimeType`. */
export const TYPE_FILTERS = [
  { value: '', label: 'All types' },
  { value: 'image/*', label: 'Images' },
  { value: 'video/*', label: 'Video' },
  { value: 'audio/*', label: 'Audio' },
  {
    value:
      'application/pdf,text/plain,text/csv,text/markdown,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-powerpoint,application/vnd.openxmlformats-officedocument.presentationml.presentation,application/vnd.oasis.opendocument.text,application/vnd.oasis.opendocument.spreadsheet,application/vnd.oasis.opendocument.presentation',
    label: 'Documents',
  },
] as const;

import type { ImageFormat } from '../../../core/config-images.js';

/** Library types a transform reads (the bundled libvips decodes them; HEIC only when it can). */
export const TRANSFORMABLE = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/avif',
  'image/gif',
  'image/tiff',
  'image/heic',
  'image/heif',
]);

/** Types browsers show as they are: the original itself is a `srcset` candidate. */
export const WEB_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif']);

export const CONTENT_TYPE: Record<ImageFormat, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

export const EXTENSION: Record<ImageFormat, string> = { webp: 'webp', avif: 'avif', jpeg: 'jpg', png: 'png' };

/** sharp's own defaults; PNG is lossless, so it has no quality. */
const DEFAULT_QUALITY: Record<ImageFormat, number | null> = { webp: 80, avif: 50, jpeg: 80, png: null };

/**
 * Without `fm`, an image keeps its format when browsers show it; a GIF becomes a PNG (its first
 * frame), TIFF and HEIC become JPEG (photographs, mostly; transparency is flattened on white).
 */
export function defaultFormat(mime: string): ImageFormat {
  if (mime === 'image/webp') return 'webp';
  if (mime === 'image/avif') return 'avif';
  if (mime === 'image/png' || mime === 'image/gif') return 'png';
  return 'jpeg';
}

/** Media types an `Accept` header lists with a quality above zero (`type;q=0` excludes). */
function accepted(accept: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (accept ?? '').split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (type && !(q && Number(q.slice(2)) === 0)) out.add(type);
  }
  return out;
}

/** `fm=auto`: AVIF, else WebP when the client lists it, else the default format (so `Vary: Accept`). */
export function outputFormat(fm: ImageFormat | 'auto' | undefined, mime: string, accept: string | undefined) {
  if (fm && fm !== 'auto') return fm;
  if (fm === 'auto') {
    const types = accepted(accept);
    if (types.has('image/avif')) return 'avif';
    if (types.has('image/webp')) return 'webp';
  }
  return defaultFormat(mime);
}

export function outputQuality(format: ImageFormat, q: number | undefined): number | null {
  return DEFAULT_QUALITY[format] === null ? null : (q ?? DEFAULT_QUALITY[format]);
}

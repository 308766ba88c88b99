import type { ImageConfig } from '../../../core/config-images.js';
import { TRANSFORMABLE, WEB_TYPES } from './formats.js';
import { versionToken } from './sign.js';

/** Where the image route lives (outside the documented contract, like the file route). */
export const IMAGE_ROUTE = '/_cms/api/media';

export interface SrcsetCandidate {
  width: number;
  url: string;
}

export interface Srcset {
  /** Ready for `<img srcset>`: `url 320w, url 640w, …`. */
  srcset: string;
  /** The same candidates, narrowest first, for a `<picture>` or a `sizes` calculation. */
  candidates: SrcsetCandidate[];
}

/** What the candidates are made from: data every read already has (no query of its own). */
export interface SrcsetSource {
  id: string;
  mimeType: string;
  width: number | null;
  height: number | null;
  /** The current file's key (its `v`); without it the URLs are revalidated instead of cached for a year. */
  storageKey: string | null;
  /** The original file's address, the widest candidate of a browser-viewable type. */
  original: string;
}

/** GIFs are usually animations (a transform keeps the first frame) and SVG scales itself: neither gets candidates. */
const SRCSET_TYPES = new Set(
  [...TRANSFORMABLE].filter((t) => t !== 'image/gif' && t !== 'image/heic' && t !== 'image/heif'),
);

export function imageBase(publicUrl: string, id: string): string {
  return `${publicUrl}${IMAGE_ROUTE}/${id}/image`;
}

/**
 * The configured widths narrower than the image, each as its image URL, then the image at its
 * own width: the original file when browsers show its type, else (TIFF) the full-size
 * transform, when that is within `imageMaxPixels`. Null for what is not a raster photo.
 */
export function srcsetOf(config: { publicUrl: string; images: ImageConfig }, src: SrcsetSource): Srcset | null {
  if (!SRCSET_TYPES.has(src.mimeType) || !src.width || !src.height) return null;
  const base = imageBase(config.publicUrl, src.id);
  const v = src.storageKey ? `v=${versionToken(src.storageKey, null)}` : '';
  const candidates: SrcsetCandidate[] = config.images.widths
    .filter((w) => w < (src.width as number))
    .map((w) => ({ width: w, url: `${base}?w=${w}${v ? `&${v}` : ''}` }));
  if (WEB_TYPES.has(src.mimeType)) candidates.push({ width: src.width, url: src.original });
  else if (src.width * src.height <= config.images.maxPixels) {
    candidates.push({ width: src.width, url: v ? `${base}?${v}` : base });
  }
  return { srcset: candidates.map((c) => `${c.url} ${c.width}w`).join(', '), candidates };
}

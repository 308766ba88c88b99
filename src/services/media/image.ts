import type { Metadata } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { CmsError, validationError } from '../../core/errors.js';

/** sharp (libvips) loads on the first image, not at start-up. */
let sharpModule: Promise<typeof import('sharp')> | null = null;
export const loadSharp = () =>
  (sharpModule ??= import('sharp').then((m) => {
    // Each image is decoded once: libvips' operation cache would only hold memory.
    m.default.cache(false);
    return m;
  }));

export interface ImageFacts {
  width: number;
  height: number;
  /** ThumbHash of the image, base64; null when it could not be decoded (e.g. HEIC without a decoder). */
  placeholder: string | null;
}

/** Formats the bundled libvips always decodes; failing to read one of them means the file is broken. */
const MUST_DECODE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']);

/**
 * Largest edge of the image ThumbHash is computed from (its limit is 100): at 64 the hash looks
 * the same and costs an eighth of the CPU; decoding the file dominates anyway.
 */
const HASH_EDGE = 64;

/**
 * Width and height as displayed (EXIF orientation applied), after refusing
 * images whose pixel count passes `maxPixels` before anything is decoded.
 */
export async function imageFacts(path: string, mime: string, maxPixels: number): Promise<ImageFacts | null> {
  const { default: sharp } = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(path, { limitInputPixels: false }).metadata();
  } catch {
    if (MUST_DECODE.has(mime)) throw brokenImage();
    return null;
  }
  if (!meta.width || !meta.height) {
    if (MUST_DECODE.has(mime)) throw brokenImage();
    return null;
  }
  const pages = meta.pages && meta.pages > 1 ? meta.pages : 1;
  const frameHeight = meta.pageHeight ?? meta.height;
  const pixels = meta.width * frameHeight * pages;
  if (pixels > maxPixels) {
    throw new CmsError('VALIDATION_ERROR', `The image has ${pixels} pixels; at most ${maxPixels} are accepted`, {
      issues: [{ path: ['file'], code: 'too_big', message: `image above ${maxPixels} pixels` }],
      maxImagePixels: maxPixels,
    });
  }
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = rotated ? frameHeight : meta.width;
  const height = rotated ? meta.width : frameHeight;
  return { width, height, placeholder: await thumbHashOf(path, maxPixels, MUST_DECODE.has(mime)) };
}

function brokenImage(): CmsError {
  return validationError('The image could not be read: the file is damaged or not what its type says', {
    issues: [{ path: ['file'], code: 'invalid_image', message: 'the image could not be decoded' }],
  });
}

/** ThumbHash of the (orientation-corrected) first frame; null when the image cannot be decoded. */
export async function thumbHashOf(
  input: string | Buffer,
  maxPixels: number,
  mustDecode = false,
): Promise<string | null> {
  const { default: sharp } = await loadSharp();
  try {
    const { data, info } = await sharp(input, { limitInputPixels: maxPixels, failOn: 'error' })
      .rotate()
      .resize(HASH_EDGE, HASH_EDGE, { fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
  } catch {
    if (mustDecode) throw brokenImage();
    return null;
  }
}

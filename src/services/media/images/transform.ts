import type { Sharp } from 'sharp';
import type { ImageFormat } from '../../../core/config-images.js';
import { CmsError } from '../../../core/errors.js';
import { loadSharp } from '../image.js';
import type { Plan } from './geometry.js';

/** A transform that takes longer is stopped (a pathological file must not hold a slot forever). */
const TIMEOUT_SECONDS = 60;

export interface TransformJob {
  /** The original on this machine's disk. */
  input: string;
  output: string;
  /** The size the plan was made for: the item's stored (displayed) width and height. */
  source: { width: number; height: number };
  plan: Plan;
  format: ImageFormat;
  quality: number | null;
  /** `maxImagePixels`: the decoder refuses a larger input (a file that lies in its header). */
  maxInputPixels: number;
}

export const notTransformable = (why: string) =>
  new CmsError('IMAGE_NOT_TRANSFORMABLE', `This file cannot be transformed: ${why}`, { reason: why });

function encode(img: Sharp, format: ImageFormat, quality: number | null): Sharp {
  const q = quality ?? undefined;
  if (format === 'jpeg') return img.flatten({ background: '#ffffff' }).jpeg({ quality: q, progressive: true });
  if (format === 'webp') return img.webp({ quality: q });
  // effort 4 (the default) takes several times longer for a few per cent smaller files.
  if (format === 'avif') return img.avif({ quality: q, effort: 2 });
  return img.png({ compressionLevel: 8 });
}

/**
 * Make one derivative with sharp: the first frame (animations are not kept), EXIF orientation
 * applied, metadata (EXIF, GPS) dropped, colours in sRGB. A file that does not decode, or whose
 * pixels are not the size the library recorded, is not transformable (400), never a 500.
 */
export async function runTransform(job: TransformJob): Promise<void> {
  const { default: sharp } = await loadSharp();
  const open = () => sharp(job.input, { limitInputPixels: job.maxInputPixels, failOn: 'error', autoOrient: true });
  let meta: Awaited<ReturnType<Sharp['metadata']>>;
  try {
    meta = await open().metadata();
  } catch {
    throw notTransformable('the image could not be read');
  }
  const shown = meta.autoOrient ?? { width: meta.width, height: meta.height };
  if (shown.width !== job.source.width || shown.height !== job.source.height) {
    throw notTransformable('its pixels are not the size the library recorded');
  }
  const { plan } = job;
  let img = open().timeout({ seconds: TIMEOUT_SECONDS });
  if (plan.resize) img = img.resize(plan.resize.width, plan.resize.height, { fit: 'fill' });
  if (plan.extract) img = img.extract(plan.extract);
  if (plan.pad) {
    const opaque = job.format === 'jpeg';
    img = (opaque ? img : img.ensureAlpha()).extend({
      ...plan.pad,
      background: opaque ? { r: 255, g: 255, b: 255, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 },
    });
  }
  try {
    await encode(img, job.format, job.quality).toFile(job.output);
  } catch (err) {
    throw notTransformable(
      /timeout/i.test((err as Error).message) ? 'it took too long' : 'the image could not be decoded',
    );
  }
}

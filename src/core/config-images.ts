import { availableParallelism } from 'node:os';
import { z } from 'zod';

/**
 * Responsive image options (docs/media.md, "Responsive images"): which sizes anyone may ask
 * for, how large an output may be, how many transforms run at once, and the key that signs
 * URLs for any other size.
 *   file: { "imageWidths": [320, 640, 1280], "imagePresets": { "thumb": { "w": 200, "h": 200, "fit": "cover" } },
 *           "imageMaxPixels": 25000000, "imageTransformConcurrency": 2, "imageTransformQueue": 16,
 *           "imageSigningKey": "<at least 32 characters>" }
 *   env:  CMS_IMAGE_WIDTHS (comma-separated), CMS_IMAGE_MAX_PIXELS, CMS_IMAGE_TRANSFORM_CONCURRENCY,
 *         CMS_IMAGE_TRANSFORM_QUEUE, CMS_IMAGE_SIGNING_KEY. Presets are file only.
 */

export const IMAGE_FITS = ['cover', 'contain', 'inside'] as const;
export type ImageFit = (typeof IMAGE_FITS)[number];

export const IMAGE_FORMATS = ['webp', 'avif', 'jpeg', 'png'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Largest width or height a URL may name (signed or not); the pixel bound usually bites first. */
export const MAX_IMAGE_EDGE = 16_384;

export const DEFAULT_IMAGE_WIDTHS = [320, 640, 960, 1280, 1920, 2560];
/** 25 megapixels: a 5,000 × 5,000 output, far above any screen, and about 100 MB of raw pixels. */
export const DEFAULT_IMAGE_MAX_PIXELS = 25_000_000;
export const DEFAULT_IMAGE_QUEUE = 16;

const edge = z.coerce.number().int().min(1).max(MAX_IMAGE_EDGE);

const widthsSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()) : v),
  z
    .array(edge)
    .min(1)
    .max(32)
    .transform((list) => [...new Set(list)].sort((a, b) => a - b)),
);

const presetSchema = z
  .object({
    w: edge.optional(),
    h: edge.optional(),
    fit: z.enum(IMAGE_FITS).optional(),
    fm: z.enum([...IMAGE_FORMATS, 'auto']).optional(),
    q: z.number().int().min(1).max(100).optional(),
  })
  .strict()
  .refine((p) => p.w !== undefined || p.h !== undefined, { message: 'a preset needs w or h' })
  .refine((p) => p.fit === undefined || (p.w !== undefined && p.h !== undefined), {
    message: 'fit needs both w and h',
  });

export const PRESET_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

const presetsSchema = z
  .record(
    z.string().regex(PRESET_NAME, 'preset names are 1-32 of a-z, 0-9, _ and -, starting with a letter'),
    presetSchema,
  )
  .refine((r) => Object.keys(r).length <= 32, { message: 'at most 32 presets' });

/** The keys these options add to the configuration file's schema (config.ts). */
export const imageConfigShape = {
  imageWidths: widthsSchema.optional(),
  imagePresets: presetsSchema.optional(),
  imageMaxPixels: z.coerce.number().int().min(1).max(1_000_000_000).optional(),
  imageTransformConcurrency: z.coerce.number().int().min(1).max(64).optional(),
  imageTransformQueue: z.coerce.number().int().min(0).max(10_000).optional(),
  imageSigningKey: z.string().min(32, 'must be at least 32 characters').max(1024).optional(),
};

/** The environment variables of these options (config.ts reads them like the others). */
export const IMAGE_ENV_KEYS = {
  CMS_IMAGE_WIDTHS: 'imageWidths',
  CMS_IMAGE_MAX_PIXELS: 'imageMaxPixels',
  CMS_IMAGE_TRANSFORM_CONCURRENCY: 'imageTransformConcurrency',
  CMS_IMAGE_TRANSFORM_QUEUE: 'imageTransformQueue',
  CMS_IMAGE_SIGNING_KEY: 'imageSigningKey',
} as const;

export interface ImagePreset {
  w?: number;
  h?: number;
  fit?: ImageFit;
  fm?: ImageFormat | 'auto';
  q?: number;
}

export interface ImageConfig {
  /** Widths anyone may ask for (ascending, unique); the `srcset` candidates. */
  widths: number[];
  presets: Record<string, ImagePreset>;
  /** Largest output, in pixels. */
  maxPixels: number;
  /** Transforms running at once in this process. */
  concurrency: number;
  /** Transforms waiting for a slot; one more is answered 503. */
  queue: number;
  /** HMAC key of signed URLs (any size); null: only the widths and presets. */
  signingKey: string | null;
}

type ImageInput = { [K in keyof typeof imageConfigShape]?: z.output<(typeof imageConfigShape)[K]> };

export function resolveImages(v: ImageInput): ImageConfig {
  return {
    widths: v.imageWidths ?? DEFAULT_IMAGE_WIDTHS,
    presets: v.imagePresets ?? {},
    maxPixels: v.imageMaxPixels ?? DEFAULT_IMAGE_MAX_PIXELS,
    // One transform per core keeps the rest of the service responsive; libvips threads within each.
    concurrency: v.imageTransformConcurrency ?? Math.max(1, Math.min(availableParallelism(), 8)),
    queue: v.imageTransformQueue ?? DEFAULT_IMAGE_QUEUE,
    signingKey: v.imageSigningKey ?? null,
  };
}

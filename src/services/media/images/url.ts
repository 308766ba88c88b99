import { DEFAULT_IMAGE_WIDTHS, type ImagePreset } from '../../../core/config-images.js';
import { CmsError } from '../../../core/errors.js';
import { canonicalTransform, focalMatters, type ImageParams, specOf } from './params.js';
import { CENTRE, type FocalPoint, imageSignature, versionToken } from './sign.js';
import { imageBase } from './srcset.js';

export interface ImageUrlOptions {
  /** The site's `publicUrl`. */
  publicUrl: string;
  /** The site's `imageWidths` (default: the service's default widths). */
  widths?: readonly number[];
  /** The site's `imagePresets`. */
  presets?: Readonly<Record<string, ImagePreset>>;
  /** The site's `imageSigningKey`: needed for any size that is neither a configured width nor a preset. */
  signingKey?: string | null;
}

export interface ImageUrlTarget {
  id: string;
  /** The item's current storage key: with it the URL is cached for a year (its `v`). */
  storageKey?: string | null;
  focalPoint?: FocalPoint | null;
}

/**
 * The canonical URL of a responsive image, signed when its size needs it: what the server
 * answers without a redirect (docs/media.md, "Responsive images"). A plain function of the
 * site's options, so a client library holding the signing key (a server-side renderer) makes
 * the same URLs as the service; never give the key to a browser.
 */
export function imageUrl(options: ImageUrlOptions, item: ImageUrlTarget, params: ImageParams): string {
  const transform = canonicalTransform(params);
  const spec = specOf(params, options.presets ?? {});
  const widths = options.widths ?? DEFAULT_IMAGE_WIDTHS;
  const open =
    params.preset !== undefined || (params.h === undefined && (params.w === undefined || widths.includes(params.w)));
  const parts = transform ? [transform] : [];
  if (item.storageKey)
    parts.push(`v=${versionToken(item.storageKey, focalMatters(spec) ? (item.focalPoint ?? CENTRE) : null)}`);
  if (!open) {
    if (!options.signingKey) {
      throw new CmsError('IMAGE_SIZE_NOT_ALLOWED', 'This size needs a signed URL and no signing key was given', {
        widths,
        presets: Object.keys(options.presets ?? {}),
      });
    }
    parts.push(`sig=${imageSignature(options.signingKey, item.id, transform)}`);
  }
  const base = imageBase(options.publicUrl, item.id);
  return parts.length ? `${base}?${parts.join('&')}` : base;
}

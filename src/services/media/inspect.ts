import { CmsError, validationError } from '../../core/errors.js';
import { imageFacts, thumbHashOf } from './image.js';
import { isRasterImage, mimeAllowed, mimeMismatch, normaliseMime, sniffMime } from './mime.js';
import type { StagedFile } from './staging.js';

/** What the library records about a file, learnt from its bytes. */
export interface FileFacts {
  mime: string;
  width: number | null;
  height: number | null;
  placeholder: string | null;
}

export interface InspectOptions {
  /** The type the client sent (multipart part header or declared content type). */
  claimedType: string;
  /** The site's allowlist (`mediaAllowedTypes`). */
  allowed: readonly string[];
  /** A field's `allowedMimeTypes`, when the upload is made for one. */
  fieldAllowed?: { field: string; types: readonly string[] } | null;
  maxImagePixels: number;
  /** Dimensions the client knows (video, formats the server does not decode). */
  width?: number;
  height?: number;
  /** A small image of the file (video poster, document page) for the placeholder. */
  thumbnail?: StagedFile | null;
}

/**
 * Decide what the staged file is and whether the library takes it: the type
 * comes from the bytes (a disagreeing claim is INVALID_TYPE), it must be in the
 * site's allowlist and the field's, and images are measured with their
 * orientation applied (and refused above the pixel limit).
 */
export async function inspectFile(file: StagedFile, options: InspectOptions): Promise<FileFacts> {
  if (file.size === 0) throw new CmsError('NO_FILE', 'The file is empty');
  const claimed = normaliseMime(options.claimedType);
  const mime = await sniffMime(file.head, file.complete, claimed);
  if (mimeMismatch(claimed, mime)) {
    throw new CmsError('INVALID_TYPE', `The file's content is ${mime}, not the declared ${claimed}`, {
      declared: claimed,
      detected: mime,
    });
  }
  if (!mimeAllowed(mime, options.allowed)) {
    throw new CmsError('INVALID_TYPE', `Files of type ${mime} are not accepted by this site`, {
      detected: mime,
      allowed: options.allowed,
    });
  }
  const field = options.fieldAllowed;
  if (field && !mimeAllowed(mime, field.types)) {
    throw new CmsError('INVALID_TYPE', `The field "${field.field}" does not accept ${mime}`, {
      detected: mime,
      allowed: field.types,
      field: field.field,
    });
  }
  const image = isRasterImage(mime) ? await imageFacts(file.path, mime, options.maxImagePixels) : null;
  let placeholder = image?.placeholder ?? null;
  if (!placeholder && options.thumbnail) placeholder = await thumbnailHash(options.thumbnail, options.maxImagePixels);
  return {
    mime,
    width: image ? image.width : (options.width ?? null),
    height: image ? image.height : (options.height ?? null),
    placeholder,
  };
}

/** The client's thumbnail must itself be a small raster image. */
async function thumbnailHash(thumb: StagedFile, maxPixels: number): Promise<string> {
  const mime = await sniffMime(thumb.head, thumb.complete, '');
  const bad = () =>
    validationError('The thumbnail must be a small JPEG, PNG, WebP, GIF or AVIF image', {
      issues: [{ path: ['thumbnail'], code: 'invalid_image', message: 'not a decodable raster image' }],
    });
  if (!/^image\/(jpeg|png|webp|gif|avif)$/.test(mime)) throw bad();
  const hash = await thumbHashOf(thumb.path, Math.min(maxPixels, 4096 * 4096));
  if (!hash) throw bad();
  return hash;
}

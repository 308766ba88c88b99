import { z } from '@hono/zod-openapi';
import { hasControlChars, isWellFormed } from '../core/text.js';

/** Request and response shapes of the media API (REST bodies, the OpenAPI document and MCP tool inputs). */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });

/** Text that both databases store alike: no NUL or control characters (line breaks where `multiline`), no lone surrogates. */
export const safeText = (max: number, multiline = false) =>
  z
    .string()
    .max(max)
    .refine((s) => !hasControlChars(s, multiline), { message: 'must not contain control characters (such as NUL)' })
    .refine(isWellFormed, { message: 'must be valid Unicode text (no lone surrogates)' });

export const ALT_MAX = 1000;
export const CAPTION_MAX = 5000;
export const FILENAME_MAX = 255;

const Alt = safeText(ALT_MAX).nullable().openapi({ description: 'Alternative text; empty is stored as null' });
const Caption = safeText(CAPTION_MAX, true).nullable().openapi({ description: 'Caption; empty is stored as null' });
const Dimension = z.coerce.number().int().min(1).max(100_000);
const MimeType = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/, 'expected a MIME type')
  .openapi({ example: 'image/jpeg' });
const FolderRef = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[0-9A-Za-z]+$/, 'expected a folder ID');

export const MediaUsageSchema = z
  .object({
    count: z.number().int().nullable().openapi({ description: 'Null for callers who may not read drafts' }),
    coverage: z.enum(['complete', 'never', 'running', 'partial', 'failed', 'stale', 'unknown']),
  })
  .openapi('MediaUsage');

const Fraction = z.number().min(0).max(1);

export const FocalPointSchema = z
  .object({
    x: Fraction.openapi({ description: 'From the left edge: 0 to 1 of the displayed width' }),
    y: Fraction.openapi({ description: 'From the top edge: 0 to 1 of the displayed height' }),
  })
  .strict()
  .openapi('FocalPoint', { description: 'Where the subject is; `fit=cover` crops keep it in the frame' });

export const SrcsetCandidateSchema = z
  .object({ width: z.number().int().openapi({ description: 'Pixels (the `w` descriptor)' }), url: z.string() })
  .openapi('SrcsetCandidate');

const SrcsetText = z.string().openapi({
  description:
    'Ready for `<img srcset>`: an image URL per configured width narrower than the image (`…/media/{id}/image?w=640&v=…`, cached for a year), then the image at its own width',
  example: 'https://site/_cms/api/media/01J…/image?w=320&v=3f2a… 320w, https://site/_cms/api/media/file/01J….jpg 1200w',
});
const SrcsetList = z
  .array(SrcsetCandidateSchema)
  .openapi({ description: 'The srcset candidates, narrowest first (for `<picture>` or a `sizes` calculation)' });

export const MediaItemSchema = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'ready']),
    filename: z.string(),
    mimeType: z.string().openapi({ description: 'Detected from the bytes' }),
    size: z.number().int().openapi({ description: 'Bytes' }),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    alt: z.string().nullable(),
    caption: z.string().nullable(),
    placeholder: z.string().nullable().openapi({ description: 'ThumbHash (base64) for a low-quality placeholder' }),
    folderId: z.string().nullable().openapi({ description: 'Null: the Main library' }),
    storageKey: z.string(),
    contentHash: z.string().nullable().openapi({ description: '`sha256:<hex>` of the bytes' }),
    url: z.string().openapi({ description: 'Stable address of the file (kept when the file is replaced)' }),
    immutableUrl: z.string().openapi({ description: 'Address of exactly these bytes, cacheable for a year' }),
    uploadedBy: z.string().nullable(),
    focalPoint: FocalPointSchema.nullable().openapi({ description: 'Null: crops centre on the middle' }),
    srcset: SrcsetText.nullable().openapi({
      description:
        'Null unless the item is a ready JPEG, PNG, WebP, AVIF or TIFF image (GIF, SVG and other files have none)',
    }),
    srcsetCandidates: SrcsetList.nullable(),
    createdAt: Instant,
    updatedAt: Instant,
    usage: MediaUsageSchema.optional().openapi({ description: 'Only with includeUsage=1' }),
  })
  .openapi('MediaItem');

/**
 * An image field value as content reads return it (spec 2, "Field types": image): the stored
 * object plus the read-only `srcset` and `srcsetCandidates` of a library image. Entry `data`
 * is free-form in the document, so this component describes those values.
 */
export const ImageFieldValueSchema = z
  .object({
    id: z.string(),
    provider: z.string().optional().openapi({ description: '`local` (or absent): a media library item' }),
    src: z.string().optional(),
    alt: z.string().optional(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    mimeType: z.string().optional(),
    meta: z.object({ storageKey: z.string().optional() }).optional(),
    srcset: SrcsetText.optional().openapi({
      description: 'Read only (dropped when written back): library JPEG, PNG, WebP, AVIF and TIFF images only',
    }),
    srcsetCandidates: SrcsetList.optional().openapi({ description: 'Read only, like srcset' }),
    darkVariant: z
      .object({})
      .passthrough()
      .optional()
      .openapi({ description: 'A second image for dark colour schemes, in this same shape' }),
  })
  .openapi('ImageFieldValue');

export const MediaSingle = z.object({ item: MediaItemSchema }).openapi('MediaSingle');

export const MediaList = z
  .object({
    items: z.array(MediaItemSchema),
    nextCursor: z.string().optional(),
    totalCount: z.number().int().optional().openapi({ description: 'Match count (numbered page mode)' }),
  })
  .openapi('MediaList');

export const UploadResultSchema = z
  .object({
    item: MediaItemSchema,
    deduplicated: z.boolean().openapi({ description: 'True: identical bytes were already in the library (200)' }),
  })
  .openapi('MediaUploadResult');

export const MediaDeleted = z.object({ deleted: z.literal(true), id: z.string() }).openapi('MediaDeleted');

export const MediaIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

const positiveInt = (name: string, max?: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(max ?? 1_000_000)
    .optional()
    .openapi({ param: { name, in: 'query' }, type: 'integer' });

const IncludeUsage = z
  .enum(['1'])
  .optional()
  .openapi({ param: { name: 'includeUsage', in: 'query' }, description: 'Only `1`: add `usage` to each item' });

const MimePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/;

export const ListMediaQuery = z.object({
  cursor: z
    .string()
    .max(4096)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
  page: positiveInt('page'),
  limit: positiveInt('limit', 100),
  folderId: z
    .union([z.literal('unfiled'), FolderRef])
    .optional()
    .openapi({
      param: { name: 'folderId', in: 'query' },
      description: 'A folder ID, or `unfiled` for the Main library only; omit for every folder',
    }),
  mimeType: z
    .string()
    .max(1000)
    .optional()
    .transform((s, ctx) => {
      if (s === undefined) return undefined;
      const list = s
        .split(',')
        .map((m) => m.trim().toLowerCase())
        .filter(Boolean);
      if (list.length > 20 || list.some((m) => !MimePattern.test(m))) {
        ctx.addIssue({ code: 'custom', message: 'expected MIME types or families such as image/* (comma-separated)' });
        return z.NEVER;
      }
      return list;
    })
    .openapi({
      param: { name: 'mimeType', in: 'query' },
      type: 'string',
      description: 'Comma-separated MIME types or families, e.g. `image/*,application/pdf`',
    }),
  filename: safeText(200)
    .optional()
    .openapi({ param: { name: 'filename', in: 'query' }, description: 'Part of the filename (case-insensitive)' }),
  includeUsage: IncludeUsage,
});

export const GetMediaQuery = z.object({ includeUsage: IncludeUsage });

export const UpdateMediaBody = z
  .object({
    alt: Alt.optional(),
    caption: Caption.optional(),
    folderId: FolderRef.nullable().optional().openapi({ description: 'A folder ID, or null for the Main library' }),
    filename: safeText(FILENAME_MAX).min(1).optional(),
    focalPoint: FocalPointSchema.nullable()
      .optional()
      .openapi({ description: 'Raster images only; null puts it back in the centre' }),
  })
  .strict()
  .openapi('UpdateMediaRequest');

/** The text parts of a direct upload (validated after the body is read). */
export const UploadFields = z
  .object({
    alt: Alt.optional(),
    caption: Caption.optional(),
    width: Dimension.optional(),
    height: Dimension.optional(),
    fieldId: z.string().min(1).max(64).optional(),
    folderId: FolderRef.optional(),
  })
  .strict();

const Binary = z.string().openapi({ type: 'string', format: 'binary' });

export const UploadForm = z
  .object({
    file: Binary.openapi({ description: 'The file (required); its type is detected from its bytes' }),
    alt: z.string().optional(),
    caption: z.string().optional(),
    width: z.number().int().optional().openapi({ description: 'For files the server cannot measure (video)' }),
    height: z.number().int().optional(),
    fieldId: z
      .string()
      .optional()
      .openapi({ description: 'ID of an image or file field: applies its allowedMimeTypes' }),
    folderId: z.string().optional(),
    thumbnail: Binary.optional().openapi({
      description: 'A small image (≤ 1 MiB) for the placeholder of non-image files',
    }),
  })
  .openapi('MediaUploadForm');

export const ReplaceForm = z
  .object({
    file: Binary.openapi({ description: 'The new file: the same kind (image for an image …)' }),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    thumbnail: Binary.optional(),
  })
  .openapi('MediaReplaceForm');

export const ReplaceFields = UploadFields.pick({ width: true, height: true }).strict();

export const PendingBody = Binary.openapi({ description: 'The bytes of the pending file' });

export const UploadUrlBody = z
  .object({
    filename: safeText(FILENAME_MAX).min(1),
    contentType: MimeType,
    size: z.number().int().min(1).openapi({ description: 'Bytes' }),
    contentHash: z
      .string()
      .max(80)
      .optional()
      .openapi({ description: 'SHA-256 of the bytes (hex, optionally `sha256:`-prefixed)' }),
  })
  .strict()
  .openapi('MediaUploadUrlRequest');

export const UploadUrlResultSchema = z
  .union([
    z.object({
      existing: z.literal(false),
      mediaId: z.string(),
      storageKey: z.string(),
      uploadUrl: z.string().openapi({ description: 'Root-relative (send your credentials) or absolute presigned URL' }),
      method: z.literal('PUT'),
      headers: z.record(z.string(), z.string()),
      expiresAt: Instant,
    }),
    z.object({ existing: z.literal(true), mediaId: z.string(), item: MediaItemSchema }),
  ])
  .openapi('MediaUploadUrlResult');

export const ConfirmBody = z
  .object({
    size: z.number().int().min(0),
    width: z.number().int().min(1).max(100_000).optional(),
    height: z.number().int().min(1).max(100_000).optional(),
    alt: Alt.optional(),
    caption: Caption.optional(),
  })
  .strict()
  .openapi('MediaConfirmRequest');

export const PendingUploadResult = z
  .object({ mediaId: z.string(), storageKey: z.string(), size: z.number().int() })
  .openapi('MediaPendingUploadResult');

export const UsageQuery = z.object({
  cursor: z
    .string()
    .max(4096)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
  limit: positiveInt('limit', 100),
});

export const MediaUsageResult = z
  .object({
    items: z.array(
      z.object({
        collection: z.string(),
        id: z.string(),
        locale: z.string(),
        title: z.string().nullable(),
        status: z.string(),
      }),
    ),
    nextCursor: z.string().optional(),
    coverage: MediaUsageSchema.shape.coverage,
    siteSettings: z.array(z.object({ setting: z.string() })),
  })
  .openapi('MediaUsageResult');

export const FolderSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    itemCount: z.number().int(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .openapi('MediaFolder');

export const FolderList = z
  .object({ items: z.array(FolderSchema), nextCursor: z.string().optional() })
  .openapi('MediaFolderList');

export const FolderBody = z
  .object({
    name: z.string().max(1000).openapi({ description: 'Trimmed; at most 200 characters; unique ignoring case' }),
  })
  .strict()
  .openapi('MediaFolderRequest');

export const FolderDeleted = z
  .object({ deleted: z.literal(true), id: z.string(), itemsMoved: z.number().int() })
  .openapi('MediaFolderDeleted');

export const ListFoldersQuery = z.object({
  cursor: z
    .string()
    .max(4096)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
  limit: positiveInt('limit', 100),
});

import { z } from 'zod';
import { attachmentSchema } from '../services/import/media-copy/attachment.js';

/**
 * Bodies of the WordPress media copy routes (outside the OpenAPI contract,
 * like the other import routes): the attachments to copy, and the URL map to
 * apply to entries afterwards.
 */

export const mediaCopyBodySchema = z.strictObject({
  attachments: z.array(attachmentSchema).min(1).max(10_000),
  /** Newline-delimited JSON progress records (default) or one envelope at the end. */
  stream: z.boolean().default(true),
  /** Library folder for new items; omitted: the main library. */
  folderId: z.string().min(1).max(64).optional(),
});

const url = z.string().min(1).max(2048);

const slug = z.string().regex(/^[a-z][a-z0-9_]*$/);
const id = z.string().min(1).max(64);

/** One entry of the import result's `media.featuredImages`. */
export const featuredImageSchema = z.strictObject({ collection: slug, entryId: id, field: slug, url });

export const rewriteUrlsBodySchema = z.strictObject({
  urlMap: z.record(url, url).refine((m) => Object.keys(m).length <= 50_000, 'at most 50,000 URLs'),
  collections: z.array(slug).min(1).max(500).optional(),
  /** Entries whose image field gets the copied file (the import's `media.featuredImages`). */
  featuredImages: z.array(featuredImageSchema).max(100_000).optional(),
  /** The copy's `mediaIds`: source URL → library item ID. */
  mediaIds: z
    .record(url, id)
    .refine((m) => Object.keys(m).length <= 50_000, 'at most 50,000 URLs')
    .optional(),
});

export type { Attachment } from '../services/import/media-copy/attachment.js';
export type MediaCopyBody = z.output<typeof mediaCopyBodySchema>;
export type RewriteUrlsBody = z.output<typeof rewriteUrlsBodySchema>;

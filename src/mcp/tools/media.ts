import { z } from 'zod';
import {
  Base64Upload,
  ConfirmByKeyBody,
  confirmMediaUploadByKey,
  deleteMedia,
  getMedia,
  listMedia,
  updateMedia,
  uploadMediaBase64,
} from '../../operations/media.js';
import { ListMediaQuery, UpdateMediaBody } from '../../schemas/media.js';
import { DESTRUCTIVE, READ, type ToolDef, toolOf, WRITE } from '../registry.js';

const Id = z.object({ id: z.string().min(1).max(64).describe('Media item ID') });

const ListInput = z.object({
  cursor: ListMediaQuery.shape.cursor,
  page: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  folderId: ListMediaQuery.shape.folderId,
  mimeType: ListMediaQuery.shape.mimeType.describe('Comma-separated MIME types or families, e.g. "image/*"'),
  filename: ListMediaQuery.shape.filename,
  includeUsage: z.boolean().optional().describe('Add usage (count and index coverage) to each item'),
});

/** A tool's `includeUsage: true` is the query's `includeUsage=1`. */
const usageFlag = (on: boolean | undefined) => (on ? ('1' as const) : undefined);

export const mediaTools: ToolDef[] = [
  toolOf(listMedia, {
    name: 'media_list',
    title: 'List Media',
    description:
      'List ready media items, newest first (cursor or numbered pages); filter by folderId ("unfiled" = Main library), MIME type and filename.',
    annotations: READ,
    input: ListInput,
    toArgs: (a) => ({
      query: {
        cursor: a.cursor,
        page: a.page,
        limit: a.limit,
        folderId: a.folderId,
        // The argument arrives parsed into a list; the query takes it as the text it was.
        mimeType: a.mimeType?.join(','),
        filename: a.filename,
        includeUsage: usageFlag(a.includeUsage),
      },
    }),
  }),
  toolOf(getMedia, {
    name: 'media_get',
    title: 'Get Media Item',
    description: 'Get one media item: type, size, dimensions, alt text, caption, folder and its URLs.',
    annotations: READ,
    input: Id.extend({ includeUsage: z.boolean().optional() }),
    toArgs: (a) => ({ params: { id: a.id }, query: { includeUsage: usageFlag(a.includeUsage) } }),
  }),
  toolOf(uploadMediaBase64, {
    name: 'media_upload',
    title: 'Upload Media',
    description:
      "Upload a file as base64 (within the site's maximum upload size and accepted types; the type is detected from the bytes). Identical bytes answer the existing item with deduplicated: true.",
    annotations: WRITE,
    input: Base64Upload,
    toArgs: (a) => ({ body: a }),
  }),
  toolOf(confirmMediaUploadByKey, {
    name: 'media_create',
    title: 'Confirm Signed Media Upload',
    description:
      'Confirm your own pending upload (from POST /media/upload-url) by its storageKey once the bytes are uploaded: the stored file must exist and match size (and width/height when given).',
    annotations: WRITE,
    input: ConfirmByKeyBody,
    toArgs: (a) => ({ body: a }),
  }),
  toolOf(updateMedia, {
    name: 'media_update',
    title: 'Update Media Metadata',
    description:
      'Change the alt text, caption, folder (null = Main library), filename or focal point (x and y as fractions of 0 to 1 from the top left; null = the centre; raster images only) of a media item. Crops made by GET /media/{id}/image?fit=cover keep the focal point in the frame.',
    annotations: { ...WRITE, idempotentHint: true },
    input: Id.extend(UpdateMediaBody.shape),
    toArgs: ({ id, ...body }) => ({ params: { id }, body }),
  }),
  toolOf(deleteMedia, {
    name: 'media_delete',
    title: 'Delete Media',
    description: 'Delete a media item; its bytes are removed once no other item shares them. Cannot be undone.',
    annotations: DESTRUCTIVE,
    input: Id,
    toArgs: (a) => ({ params: { id: a.id } }),
  }),
];

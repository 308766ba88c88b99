import { z } from 'zod';
import {
  ConfirmBody,
  ListMediaQuery,
  MediaDeleted,
  MediaItemSchema,
  MediaList,
  safeText,
  UpdateMediaBody,
  UploadFields,
  UploadResultSchema,
} from '../../schemas/media.js';
import { DESTRUCTIVE, READ, type ToolDef, tool, WRITE } from '../registry.js';

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

export const mediaTools: ToolDef[] = [
  tool({
    name: 'media_list',
    title: 'List Media',
    description:
      'List ready media items, newest first (cursor or numbered pages); filter by folderId ("unfiled" = Main library), MIME type and filename.',
    scope: 'media:read',
    annotations: READ,
    input: ListInput,
    output: MediaList,
    run: ({ services, actor }, a) =>
      services.media.list(actor, {
        cursor: a.cursor,
        page: a.page,
        limit: a.limit,
        folderId: a.folderId,
        mimeTypes: a.mimeType,
        filename: a.filename,
        includeUsage: a.includeUsage,
      }),
  }),
  tool({
    name: 'media_get',
    title: 'Get Media Item',
    description: 'Get one media item: type, size, dimensions, alt text, caption, folder and its URLs.',
    scope: 'media:read',
    annotations: READ,
    input: Id.extend({ includeUsage: z.boolean().optional() }),
    output: z.object({ item: MediaItemSchema }),
    run: async ({ services, actor }, a) => ({
      item: await services.media.get(actor, a.id, { includeUsage: a.includeUsage }),
    }),
  }),
  tool({
    name: 'media_upload',
    title: 'Upload Media',
    description:
      "Upload a file as base64 (within the site's maximum upload size and accepted types; the type is detected from the bytes). Identical bytes answer the existing item with deduplicated: true.",
    scope: 'media:write',
    annotations: WRITE,
    input: z.object({
      filename: safeText(255).min(1).describe('File name, e.g. "team.jpg"'),
      contentType: z.string().max(255).optional().describe('MIME type of the file (checked against its bytes)'),
      data: z.string().min(1).describe('The file, base64-encoded'),
      alt: UploadFields.shape.alt,
      caption: UploadFields.shape.caption,
      folderId: UploadFields.shape.folderId,
      fieldId: UploadFields.shape.fieldId.describe("An image or file field's ID: applies its allowedMimeTypes"),
    }),
    output: UploadResultSchema,
    run: ({ services, actor }, a) =>
      services.media.uploadBase64(actor, {
        data: a.data,
        filename: a.filename,
        claimedType: a.contentType,
        alt: a.alt,
        caption: a.caption,
        folderId: a.folderId,
        fieldId: a.fieldId,
      }),
  }),
  tool({
    name: 'media_create',
    title: 'Confirm Signed Media Upload',
    description:
      'Confirm your own pending upload (from POST /media/upload-url) by its storageKey once the bytes are uploaded: the stored file must exist and match size (and width/height when given).',
    scope: 'media:write',
    annotations: WRITE,
    input: ConfirmBody.extend({
      storageKey: z.string().min(1).max(100).describe('storageKey from the upload-url answer'),
    }),
    output: UploadResultSchema,
    run: ({ services, actor }, { storageKey, ...input }) => services.media.confirmByKey(actor, storageKey, input),
  }),
  tool({
    name: 'media_update',
    title: 'Update Media Metadata',
    description:
      'Change the alt text, caption, folder (null = Main library), filename or focal point (x and y as fractions of 0 to 1 from the top left; null = the centre; raster images only) of a media item. Crops made by GET /media/{id}/image?fit=cover keep the focal point in the frame.',
    scope: 'media:write',
    annotations: { ...WRITE, idempotentHint: true },
    input: Id.extend(UpdateMediaBody.shape),
    output: z.object({ item: MediaItemSchema }),
    run: async ({ services, actor }, { id, ...input }) => ({ item: await services.media.update(actor, id, input) }),
  }),
  tool({
    name: 'media_delete',
    title: 'Delete Media',
    description: 'Delete a media item; its bytes are removed once no other item shares them. Cannot be undone.',
    scope: 'media:write',
    annotations: DESTRUCTIVE,
    input: Id,
    output: MediaDeleted,
    run: ({ services, actor }, a) => services.media.remove(actor, a.id),
  }),
];

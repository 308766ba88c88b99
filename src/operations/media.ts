import { z } from 'zod';
import {
  ConfirmBody,
  FolderBody,
  FolderDeleted,
  FolderList,
  FolderSchema,
  GetMediaQuery,
  ListFoldersQuery,
  ListMediaQuery,
  MediaDeleted,
  MediaIdParams,
  MediaList,
  MediaSingle,
  MediaUsageResult,
  safeText,
  UpdateMediaBody,
  UploadFields,
  UploadResultSchema,
  UploadUrlBody,
  UploadUrlResultSchema,
  UsageQuery,
} from '../schemas/media.js';
import { operation } from './operation.js';

/**
 * The media library operations (spec: "Media" table; MCP media_*). Uploads
 * that stream their bytes (multipart, the pending item's bytes) and the file
 * and image answers are transport and stay with the REST door
 * (http/routes/media.ts); a tool uploads base64 instead. The rules live in
 * the media service.
 */
const READS = 'media:read';
const WRITES = 'media:write';

export const listMediaFolders = operation({
  id: 'listMediaFolders',
  query: ListFoldersQuery,
  output: FolderList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) => services.media.folders.list(actor, query),
});

export const createMediaFolder = operation({
  id: 'createMediaFolder',
  body: FolderBody,
  output: FolderSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { body }) => services.media.folders.create(actor, body),
});

export const getMediaFolder = operation({
  id: 'getMediaFolder',
  params: MediaIdParams,
  output: FolderSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.media.folders.get(actor, params.id),
});

export const updateMediaFolder = operation({
  id: 'updateMediaFolder',
  params: MediaIdParams,
  body: FolderBody,
  output: FolderSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.media.folders.update(actor, params.id, body),
});

export const deleteMediaFolder = operation({
  id: 'deleteMediaFolder',
  params: MediaIdParams,
  output: FolderDeleted,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params }) => services.media.folders.remove(actor, params.id),
});

/** A pending item and where to upload its bytes, or (`existing: true`) the item already holding them. */
export const getMediaUploadUrl = operation({
  id: 'getMediaUploadUrl',
  body: UploadUrlBody,
  output: UploadUrlResultSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { body }) => services.media.requestUpload(actor, body),
});

export const listMedia = operation({
  id: 'listMedia',
  query: ListMediaQuery,
  output: MediaList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) =>
    services.media.list(actor, {
      cursor: query.cursor,
      page: query.page,
      limit: query.limit,
      folderId: query.folderId,
      mimeTypes: query.mimeType,
      filename: query.filename,
      includeUsage: query.includeUsage === '1',
    }),
});

export const getMedia = operation({
  id: 'getMedia',
  params: MediaIdParams,
  query: GetMediaQuery,
  output: MediaSingle,
  writes: false,
  scope: READS,
  run: async ({ services, actor }, { params, query }) => ({
    item: await services.media.get(actor, params.id, { includeUsage: query.includeUsage === '1' }),
  }),
});

export const updateMedia = operation({
  id: 'updateMedia',
  params: MediaIdParams,
  body: UpdateMediaBody,
  output: MediaSingle,
  writes: true,
  scope: WRITES,
  run: async ({ services, actor }, { params, body }) => ({ item: await services.media.update(actor, params.id, body) }),
});

export const deleteMedia = operation({
  id: 'deleteMedia',
  params: MediaIdParams,
  output: MediaDeleted,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params }) => services.media.remove(actor, params.id),
});

export const getMediaUsage = operation({
  id: 'getMediaUsage',
  params: MediaIdParams,
  query: UsageQuery,
  output: MediaUsageResult,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) => services.media.usage(actor, params.id, query),
});

export const confirmMediaUpload = operation({
  id: 'confirmMediaUpload',
  params: MediaIdParams,
  body: ConfirmBody,
  output: UploadResultSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.media.confirm(actor, params.id, body),
});

/** A file as base64 with its metadata: the upload of a caller that cannot stream bytes (MCP media_upload). */
export const Base64Upload = z.object({
  filename: safeText(255).min(1).describe('File name, e.g. "team.jpg"'),
  contentType: z.string().max(255).optional().describe('MIME type of the file (checked against its bytes)'),
  data: z.string().min(1).describe('The file, base64-encoded'),
  alt: UploadFields.shape.alt,
  caption: UploadFields.shape.caption,
  folderId: UploadFields.shape.folderId,
  fieldId: UploadFields.shape.fieldId.describe("An image or file field's ID: applies its allowedMimeTypes"),
});

/** Upload a base64 file (MCP media_upload; REST streams multipart instead): identical bytes answer the existing item. */
export const uploadMediaBase64 = operation({
  id: 'uploadMediaBase64',
  body: Base64Upload,
  output: UploadResultSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { body }) =>
    services.media.uploadBase64(actor, {
      data: body.data,
      filename: body.filename,
      claimedType: body.contentType,
      alt: body.alt,
      caption: body.caption,
      folderId: body.folderId,
      fieldId: body.fieldId,
    }),
});

/** A confirmation of one's own pending upload named by its storage key (MCP media_create; REST names the item). */
export const ConfirmByKeyBody = ConfirmBody.extend({
  storageKey: z.string().min(1).max(100).describe('storageKey from the upload-url answer'),
});

export const confirmMediaUploadByKey = operation({
  id: 'confirmMediaUploadByKey',
  body: ConfirmByKeyBody,
  output: UploadResultSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { body: { storageKey, ...input } }) =>
    services.media.confirmByKey(actor, storageKey, input),
});

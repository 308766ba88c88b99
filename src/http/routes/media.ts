import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Actor } from '../../auth/actor.js';
import { CmsError, schemaError } from '../../core/errors.js';
import {
  confirmMediaUpload,
  deleteMedia,
  getMedia,
  getMediaUploadUrl,
  getMediaUsage,
  listMedia,
  updateMedia,
} from '../../operations/media.js';
import {
  ImageFieldValueSchema,
  MediaIdParams,
  MediaSingle,
  PendingBody,
  PendingUploadResult,
  ReplaceFields,
  ReplaceForm,
  UploadFields,
  UploadForm,
  UploadResultSchema,
} from '../../schemas/media.js';
import type { Services } from '../../services/index.js';
import { discardStaged, MAX_THUMBNAIL_BYTES, type StagedFile } from '../../services/media/index.js';
import type { AppEnv } from '../env.js';
import { fileResponse } from '../file-response.js';
import { imageResponse } from '../image-response.js';
import { parseMultipart } from '../multipart.js';
import { octetBody } from '../octet-body.js';
import { type Api, op, Reply, route } from '../op.js';
import { mediaFolderRoutes } from './media-folders.js';

/** The 400s of the multipart uploads (documented with the operations). */
const MULTIPART_INVALID =
  'no part named `file`, an empty file or a body without bytes (NO_FILE; no body, `Content-Length: 0` and a chunked body without data are alike); bytes of a type not accepted, or not the type claimed (INVALID_TYPE)';

/** Room for the text parts and a thumbnail around the file in a multipart body. */
export const MULTIPART_SLACK = MAX_THUMBNAIL_BYTES + 256 * 1024;

/** Upload routes count their bytes while streaming; the generic body limiter must not buffer them. */
export const STREAMED_UPLOADS = [/^\/_cms\/api\/media$/, /^\/_cms\/api\/media\/[^/]+\/(replace|upload)$/];

interface Received {
  staged: StagedFile;
  filename: string;
  mimeType: string;
}

/** A declared Content-Length above the limit is refused before a byte is read. */
function refuseDeclaredLength(c: Context<AppEnv>, max: number): void {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    throw new CmsError('PAYLOAD_TOO_LARGE', 'The request body is larger than the maximum upload size', {
      maxUploadSize: max - MULTIPART_SLACK,
    });
  }
}

function validFields<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
  const cleaned = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => !(v === '' && k !== 'alt' && k !== 'caption')),
  );
  const parsed = schema.safeParse(cleaned);
  if (parsed.success) return parsed.data;
  throw schemaError('Invalid request body', parsed.error.issues);
}

/** Read a multipart upload: the `file` part (and an optional `thumbnail`) staged on disk, text parts validated. */
async function receiveForm<S extends z.ZodType>(
  c: Context<AppEnv>,
  services: Services,
  actor: Actor,
  schema: S,
  fieldNames: readonly string[],
  purpose: { kind: 'upload' } | { kind: 'replace'; id: string },
) {
  refuseDeclaredLength(c, services.media.limits.maxUploadSize + MULTIPART_SLACK);
  const { fields, files } = await parseMultipart<Received>(c.req.raw, {
    files: ['file', 'thumbnail'],
    fields: fieldNames,
    maxFieldBytes: 64 * 1024,
    onFile: async (part) => ({
      staged: await services.media.stage(
        actor,
        part.stream,
        part.name === 'thumbnail' ? { kind: 'thumbnail' } : purpose,
      ),
      filename: part.filename,
      mimeType: part.mimeType,
    }),
    discard: (r) => discardStaged(r.staged),
  });
  const drop = async () => {
    for (const r of Object.values(files)) await discardStaged(r.staged);
  };
  if (!files.file) {
    await drop();
    throw new CmsError('NO_FILE', 'The request has no part named "file"');
  }
  try {
    return { file: files.file, thumbnail: files.thumbnail?.staged ?? null, fields: validFields(schema, fields) };
  } catch (err) {
    await drop();
    throw err;
  }
}

/**
 * Routes of the spec's "Media" table (the /admin/media-usage ones belong to usage tracking), and the file route
 * (operations: operations/media.ts). The streamed uploads and the file and image answers are
 * transport and stay here.
 */
export function mediaRoutes(api: Api): void {
  const tags = ['Media'];

  // Bytes of ready items, public (they are the site's assets); outside the documented contract.
  api.get('/media/file/:ref', (c) => fileResponse(c, c.get('services'), c.req.param('ref')));
  // Their responsive images: the same assets transformed, public under the same rule, answered with
  // bytes rather than the envelope, so outside the documented contract like the file route.
  api.get('/media/:id/image', (c) => imageResponse(c, c.get('services'), c.req.param('id')));
  // Image field values in entry data are free-form in the document; this component describes them.
  api.openAPIRegistry.register('ImageFieldValue', ImageFieldValueSchema);

  mediaFolderRoutes(api);

  route(api, {
    operation: getMediaUploadUrl,
    method: 'post',
    path: '/media/upload-url',
    errors: { 400: 'A type this site does not accept (INVALID_TYPE)' },
    summary: 'Create a pending item and get where to upload its bytes',
    description:
      'Answers `existing: true` with the item when `contentHash` matches a file with the same type and size (nothing to upload).',
    tags,
    status: 201,
    existing: 'A file with the same hash, type and size exists: the item with `existing: true`',
    // Nothing was created when the bytes are already in the library.
    reply: (out) => ((out as { existing?: boolean }).existing ? new Reply(out, 200) : out),
  });
  route(api, {
    operation: listMedia,
    method: 'get',
    path: '/media',
    summary: 'List the library (newest first; cursor or numbered pages)',
    tags,
  });
  op(
    api,
    {
      method: 'post',
      path: '/media',
      operationId: 'uploadMedia',
      errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
      summary: 'Upload a file (multipart); identical bytes answer the existing item',
      description:
        '201 with a new ready item, or 200 with `deduplicated: true` and the item already holding identical bytes (alt and caption are then not applied). The type is detected from the bytes.',
      tags,
      upload: {
        mediaType: 'multipart/form-data',
        schema: UploadForm,
        invalid: MULTIPART_INVALID,
      },
      response: UploadResultSchema,
      status: 201,
      existing: 'Identical bytes: the existing item with `deduplicated: true` (alt and caption not applied)',
    },
    async ({ actor, services, c }) => {
      const { file, thumbnail, fields } = await receiveForm(
        c,
        services,
        actor,
        UploadFields,
        ['alt', 'caption', 'width', 'height', 'fieldId', 'folderId'],
        { kind: 'upload' },
      );
      const out = await services.media.upload(actor, file.staged, {
        ...fields,
        filename: file.filename,
        claimedType: file.mimeType,
        thumbnail,
      });
      return out.deduplicated ? new Reply(out, 200) : out;
    },
  );
  route(api, { operation: getMedia, method: 'get', path: '/media/{id}', summary: 'Get a media item', tags });
  route(api, {
    operation: updateMedia,
    method: 'put',
    path: '/media/{id}',
    summary: 'Change alt text, caption, folder, filename or focal point',
    tags,
  });
  route(api, {
    operation: deleteMedia,
    method: 'delete',
    path: '/media/{id}',
    errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
    summary: 'Delete a media item (its bytes go once nothing else shares them)',
    tags,
  });
  route(api, {
    operation: getMediaUsage,
    method: 'get',
    path: '/media/{id}/usage',
    summary: 'Entries referencing the item (pages) and the site settings selecting it',
    tags,
  });
  op(
    api,
    {
      method: 'put',
      path: '/media/{id}/replace',
      operationId: 'replaceMediaImage',
      errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
      summary: 'Replace the file of an item (same ID and URL, new bytes and facts)',
      tags,
      params: MediaIdParams,
      upload: {
        mediaType: 'multipart/form-data',
        schema: ReplaceForm,
        invalid: MULTIPART_INVALID,
      },
      response: MediaSingle,
    },
    async ({ actor, services, params, c }) => {
      const { file, thumbnail, fields } = await receiveForm(c, services, actor, ReplaceFields, ['width', 'height'], {
        kind: 'replace',
        id: params.id,
      });
      const item = await services.media.replace(actor, params.id, file.staged, {
        ...fields,
        filename: file.filename,
        claimedType: file.mimeType,
        thumbnail,
      });
      return { item };
    },
  );
  route(api, {
    operation: confirmMediaUpload,
    method: 'post',
    path: '/media/{id}/confirm',
    errors: {
      400: 'Bytes of a type not accepted, or not the type declared (INVALID_TYPE)',
      503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)',
    },
    summary: 'Verify the uploaded bytes and make the pending item ready',
    tags,
  });
  op(
    api,
    {
      method: 'put',
      path: '/media/{id}/upload',
      operationId: 'uploadPendingMedia',
      errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
      summary: 'Upload the bytes of a pending item through the service (same-origin upload target)',
      tags,
      params: MediaIdParams,
      upload: {
        mediaType: 'application/octet-stream',
        schema: PendingBody,
        invalid:
          'an empty body is a missing upload body (NO_FILE; no body, `Content-Length: 0` and a chunked body without data are alike); a body of another size than the pending item declared (UPLOAD_SIZE_MISMATCH)',
      },
      response: PendingUploadResult,
    },
    async ({ actor, services, params, c }) => {
      const { body, length } = await octetBody(c);
      return services.media.putPending(actor, params.id, body, length);
    },
  );
}

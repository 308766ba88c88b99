import { Readable } from 'node:stream';
import { z } from '@hono/zod-openapi';
import {
  abandonTransferImport,
  advanceTransferExport,
  advanceTransferImport,
  analyzeTransferImport,
  approveTransferApproval,
  cancelTransferImport,
  createTransferExport,
  createTransferImport,
  denyTransferApproval,
  executeTransferImport,
  getTransferCapabilities,
  getTransferExport,
  getTransferImport,
  getTransferImportPlan,
  getTransferImportReceipt,
  listTransferApprovals,
  listTransferExports,
  listTransferImportMissingFiles,
  listTransferImports,
} from '../../operations/transfer.js';
import { ImportSchema, TransferFileParams, TransferIdParams, UploadFileBody } from '../../schemas/transfer.js';
import { DRIVES_SITE_IMPORT } from '../../services/holds.js';
import { ManifestSchema } from '../../services/transfer/manifest.js';
import { octetBody } from '../octet-body.js';
import { type Api, op, route } from '../op.js';

/** Package uploads stream and count their own bytes against the manifest (past the generic body limit). */
export const TRANSFER_UPLOADS = [/^\/_cms\/api\/admin\/transfer\/imports\/[^/]+\/files\/[^/]+$/];

/** A package download: never cached by a shared cache, never sniffed, always a download. */
function download(body: Readable, headers: Record<string, string>): Response {
  return new Response(Readable.toWeb(body) as unknown as ReadableStream, {
    status: 200,
    headers: {
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...headers,
    },
  });
}

/** Routes of the spec's "Site transfer" table. Rules live in the transfer service. */
export function transferRoutes(api: Api): void {
  const tags = ['Site transfer'];
  const Binary = z.object({});

  route(api, {
    operation: getTransferCapabilities,
    method: 'get',
    path: '/admin/transfer/capabilities',
    summary: 'What this site can export and import: package format, limits, options',
    tags,
  });

  route(api, {
    operation: listTransferExports,
    method: 'get',
    path: '/admin/transfer/exports',
    summary: 'Exports, newest first',
    tags,
  });
  route(api, {
    operation: createTransferExport,
    method: 'post',
    path: '/admin/transfer/exports',
    summary: 'Start an export of the whole site; advance it until nextRequestInMs is null',
    tags,
    status: 201,
  });
  route(api, {
    operation: getTransferExport,
    method: 'get',
    path: '/admin/transfer/exports/{id}',
    summary: 'One export: state, progress and, once complete, its totals',
    tags,
  });
  route(api, {
    operation: advanceTransferExport,
    method: 'post',
    path: '/admin/transfer/exports/{id}/advance',
    errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
    summary: 'Run one bounded step of a running export (about a second of work)',
    tags,
  });
  op(
    api,
    {
      method: 'get',
      path: '/admin/transfer/exports/{id}/manifest',
      operationId: 'getTransferExportManifest',
      summary: 'The package manifest, byte for byte (its SHA-256 is the package digest)',
      tags,
      params: TransferIdParams,
      response: Binary,
      download: {
        mediaTypes: ['application/json'],
        description: 'manifest.json of a complete export (not in the envelope)',
        schema: ManifestSchema,
      },
      conflict: 'The export is not complete, or expired (INVALID_STATE)',
    },
    async ({ actor, services, params }) => {
      const { text, digest } = await services.transfer.exports.manifest(actor, params.id);
      const bytes = Buffer.from(text, 'utf8');
      return download(Readable.from([bytes]), {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(bytes.length),
        'Content-Disposition': 'attachment; filename="manifest.json"',
        ETag: `"${digest.slice('sha256:'.length)}"`,
      });
    },
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/transfer/exports/{id}/files/{path}',
      operationId: 'downloadTransferExportFile',
      errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
      summary: 'One file of a complete export’s package (the path URL-encoded)',
      tags,
      params: TransferFileParams,
      response: Binary,
      download: {
        mediaTypes: ['application/x-ndjson', 'application/octet-stream'],
        description: 'The file’s bytes; `ETag` is their SHA-256',
      },
      conflict: 'The export is not complete, or expired (INVALID_STATE)',
    },
    async ({ actor, services, params }) => {
      const file = await services.transfer.exports.file(actor, params.id, params.path);
      return download(file.body, {
        'Content-Type': file.contentType,
        'Content-Length': String(file.size),
        'Content-Disposition': `attachment; filename="${file.path.slice(file.path.lastIndexOf('/') + 1)}"`,
        ETag: `"${file.sha256}"`,
      });
    },
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/transfer/exports/{id}/archive',
      operationId: 'downloadTransferExportArchive',
      errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
      summary: 'The whole package as one tar archive: manifest.json, then every file',
      tags,
      params: TransferIdParams,
      response: Binary,
      download: { mediaTypes: ['application/x-tar'], description: 'A POSIX tar archive, streamed' },
      conflict: 'The export is not complete, or expired (INVALID_STATE)',
    },
    async ({ actor, services, params }) => {
      const archive = await services.transfer.exports.archive(actor, params.id);
      return download(archive.body, {
        'Content-Type': 'application/x-tar',
        'Content-Length': String(archive.size),
        'Content-Disposition': `attachment; filename="${archive.filename}"`,
      });
    },
  );

  route(api, {
    operation: listTransferImports,
    method: 'get',
    path: '/admin/transfer/imports',
    summary: 'Imports, newest first',
    tags,
  });
  route(api, {
    operation: createTransferImport,
    method: 'post',
    path: '/admin/transfer/imports',
    summary: 'Create an import; upload manifest.json, then every file it lists',
    tags,
    status: 201,
  });
  route(api, {
    operation: getTransferImport,
    method: 'get',
    path: '/admin/transfer/imports/{id}',
    summary: 'One import: state, stage, progress, uploaded files and the plan’s headline',
    tags,
  });
  route(api, {
    operation: listTransferImportMissingFiles,
    method: 'get',
    path: '/admin/transfer/imports/{id}/missing',
    summary: 'Files the manifest lists that are not uploaded yet (manifest.json until it is)',
    tags,
  });
  op(
    api,
    {
      method: 'put',
      path: '/admin/transfer/imports/{id}/files/{path}',
      operationId: 'uploadTransferImportFile',
      errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
      summary: 'Upload one file of the package (the path URL-encoded); its size and SHA-256 must match the manifest',
      tags,
      openDuring: DRIVES_SITE_IMPORT,
      params: TransferFileParams,
      upload: {
        mediaType: 'application/octet-stream',
        schema: UploadFileBody,
        invalid:
          "an empty body (no body, `Content-Length: 0` and a chunked body without data are alike) is the file when the manifest lists it with size 0, otherwise a missing upload body (NO_FILE; always for manifest.json); a size other than the manifest's (UPLOAD_SIZE_MISMATCH); bytes that do not match its SHA-256 (VALIDATION_ERROR)",
      },
      response: ImportSchema,
    },
    async ({ actor, services, params, c }) => {
      const { body, length } = await octetBody(c);
      return services.transfer.imports.upload(actor, params.id, params.path, body, length);
    },
  );
  route(api, {
    operation: analyzeTransferImport,
    method: 'post',
    path: '/admin/transfer/imports/{id}/analyze',
    summary:
      'Run one bounded analysis step (repeat until nextRequestInMs is null), or send new decisions for a planned import',
    tags,
  });
  route(api, {
    operation: getTransferImportPlan,
    method: 'get',
    path: '/admin/transfer/imports/{id}/plan',
    summary: 'The plan: counts, sizes, principals, decisions, transformations, warnings and blockers',
    tags,
    conflict: 'The import has no plan yet (INVALID_STATE)',
  });
  route(api, {
    operation: executeTransferImport,
    method: 'post',
    path: '/admin/transfer/imports/{id}/execute',
    errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
    summary: 'Start a planned import (both digests of the latest plan); other writes wait until it is done',
    tags,
  });
  route(api, {
    operation: advanceTransferImport,
    method: 'post',
    path: '/admin/transfer/imports/{id}/advance',
    errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
    summary: 'Run one bounded step of an executing import (repeat until nextRequestInMs is null)',
    tags,
  });
  route(api, {
    operation: cancelTransferImport,
    method: 'post',
    path: '/admin/transfer/imports/{id}/cancel',
    summary: 'Cancel an import; one that began writing keeps its hold on the site until it is abandoned',
    tags,
  });
  route(api, {
    operation: abandonTransferImport,
    method: 'post',
    path: '/admin/transfer/imports/{id}/abandon',
    errors: { 503: 'The media storage is unavailable (STORAGE_UNAVAILABLE, Retry-After)' },
    summary: 'Abandon a failed or cancelled import: undo what it wrote and lift its hold on the site',
    tags,
  });
  route(api, {
    operation: getTransferImportReceipt,
    method: 'get',
    path: '/admin/transfer/imports/{id}/receipt',
    summary: 'The receipt of a complete import: what was written, mapped and left out, with its digest',
    tags,
    conflict: 'The import is not complete (INVALID_STATE)',
  });

  route(api, {
    operation: listTransferApprovals,
    method: 'get',
    path: '/admin/transfer/approvals',
    errors: { 403: 'Approvals are decided in a signed-in session, not with a token (FORBIDDEN)' },
    summary: 'Requests of MCP clients to export or import, newest first (signed-in sessions only)',
    tags,
  });
  route(api, {
    operation: approveTransferApproval,
    method: 'post',
    path: '/admin/transfer/approvals/{id}/approve',
    errors: { 403: 'Approvals are decided in a signed-in session, not with a token (FORBIDDEN)' },
    summary: 'Approve a pending request (signed-in sessions only); it can then be used once within 15 minutes',
    tags,
  });
  route(api, {
    operation: denyTransferApproval,
    method: 'post',
    path: '/admin/transfer/approvals/{id}/deny',
    errors: { 403: 'Approvals are decided in a signed-in session, not with a token (FORBIDDEN)' },
    summary: 'Deny a pending request (signed-in sessions only)',
    tags,
  });
}

/**
 * Site transfer, the import side (Admins with `transfer:import`): create an
 * import, upload its package file by file, analyze, decide, execute, advance,
 * cancel, abandon, and read plan and receipt — over the typed client, except
 * the file upload (below). docs/transfer.md, "Import".
 */
import type { QueryClient } from '@tanstack/react-query';
import type { paths } from '../../../generated/api-schema.gen';
import { api, type Schemas, unwrap } from './client';
import { ApiError, networkError, toApiError } from './errors';
import { API_BASE, seg, withCsrfHeader } from './http';
import { patchPagedList } from './transfer';

export type TransferImport = Schemas['TransferImport'];
export type ImportState = TransferImport['state'];
export type ImportPlan = Schemas['TransferImportPlan'];
export type ImportReceipt = Schemas['TransferImportReceipt'];
export type PlanPrincipal = ImportPlan['principals']['items'][number];
export type PlanItem = ImportPlan['blockers']['items'][number];
export type ImportPage = { items: TransferImport[]; nextCursor: string | null };
export type MissingPage = Schemas['TransferImportMissingFiles'];

/** What `POST …/analyze` may change on a planned import (src/services/transfer/import-plan.ts DecisionsInput). */
export interface DecisionsInput {
  principals?: Record<string, string | null>;
  title?: 'package' | 'target';
  tagline?: 'package' | 'target';
}

export const importKeys = {
  list: ['transfer', 'imports'] as const,
  plan: (id: string, planDigest: string | null) => ['transfer', 'imports', id, 'plan', planDigest] as const,
  receipt: (id: string) => ['transfer', 'imports', id, 'receipt'] as const,
  users: ['transfer', 'imports', 'users'] as const,
};

/** Imports are tall (files, plan headline, actions): ten a page, as exports. */
const IMPORT_PAGE = 10;
/** The largest page `missing` answers. */
const MISSING_PAGE = 100;

export const listImports = (cursor?: string) =>
  unwrap(api.GET('/admin/transfer/imports', { params: { query: { cursor, limit: IMPORT_PAGE } } }));

export const createImport = () => unwrap(api.POST('/admin/transfer/imports'));

export const getImport = (id: string) => unwrap(api.GET('/admin/transfer/imports/{id}', { params: { path: { id } } }));

export const missingFiles = (id: string, cursor?: string) =>
  unwrap(
    api.GET('/admin/transfer/imports/{id}/missing', {
      params: { path: { id }, query: { cursor, limit: MISSING_PAGE } },
    }),
  );

/** One analysis step (`{}`), or new decisions for a planned import (a new plan and planDigest). */
export const analyzeImport = (id: string, decisions?: DecisionsInput) =>
  unwrap(
    api.POST('/admin/transfer/imports/{id}/analyze', {
      params: { path: { id } },
      body: decisions ? { decisions } : {},
    }),
  );

export const getPlan = (id: string) =>
  unwrap(api.GET('/admin/transfer/imports/{id}/plan', { params: { path: { id } } }));

export const executeImport = (id: string, digests: { packageDigest: string; planDigest: string }) =>
  unwrap(api.POST('/admin/transfer/imports/{id}/execute', { params: { path: { id } }, body: digests }));

export const advanceImport = (id: string) =>
  unwrap(api.POST('/admin/transfer/imports/{id}/advance', { params: { path: { id } } }));

export const cancelImport = (id: string) =>
  unwrap(api.POST('/admin/transfer/imports/{id}/cancel', { params: { path: { id } } }));

export const abandonImport = (id: string) =>
  unwrap(api.POST('/admin/transfer/imports/{id}/abandon', { params: { path: { id } } }));

export const getReceipt = (id: string) =>
  unwrap(api.GET('/admin/transfer/imports/{id}/receipt', { params: { path: { id } } }));

type UploadPath = Extract<keyof paths, '/admin/transfer/imports/{id}/files/{path}'>;
const UPLOAD_PATH: UploadPath = '/admin/transfer/imports/{id}/files/{path}';

/**
 * `PUT …/files/{path}` with a Blob (a slice of the archive the person
 * picked: the browser streams it from disk, the page never holds its bytes).
 * XMLHttpRequest rather than fetch because only it reports how much of a
 * request body has been sent, and a media file can take a while. Same rules
 * as every admin request: same-origin cookie, `X-CMS-Request`, the error
 * envelope as ApiError. An abort rejects with an AbortError DOMException.
 */
export function uploadImportFile(
  id: string,
  path: string,
  body: Blob,
  { onProgress, signal }: { onProgress?: (sent: number) => void; signal?: AbortSignal } = {},
): Promise<TransferImport> {
  const url = API_BASE + UPLOAD_PATH.replace('{id}', seg(id)).replace('{path}', encodeURIComponent(path));
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was stopped.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    const headers = withCsrfHeader('PUT', new Headers({ Accept: 'application/json' }));
    for (const [name, value] of headers) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.responseType = 'text';
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded);
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    xhr.onload = () => {
      done();
      let parsed: unknown;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        parsed = xhr.responseText;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(toApiError(xhr.status, parsed));
        return;
      }
      const envelope = parsed as { success?: boolean; data?: TransferImport } | undefined;
      if (envelope?.success !== true || !envelope.data) {
        reject(new ApiError(xhr.status, 'HTTP_ERROR', 'The server answered with an unexpected response.'));
        return;
      }
      resolve(envelope.data);
    };
    xhr.onerror = () => {
      done();
      reject(networkError(new Error(`PUT ${path} failed`)));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was stopped.', 'AbortError'));
    };
    xhr.send(body);
  });
}

/** Put a fresher copy of one import into the cached list (prepended when it is new; an older copy never replaces a newer one). */
export const patchImportList = (queryClient: QueryClient, op: TransferImport) =>
  patchPagedList(queryClient, importKeys.list, op, (listed) => listed.updatedAt <= op.updatedAt);

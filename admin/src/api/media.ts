/**
 * The media library over the typed client, plus uploads. Multipart uploads go
 * through XMLHttpRequest because fetch reports no upload progress; their
 * answers have the same types as the documented operations.
 */
import { api, type Schemas, unwrap } from './client';
import { ApiError, networkError, toApiError } from './errors';
import { API_BASE, seg, withCsrfHeader } from './http';

export type MediaItem = Schemas['MediaItem'];
export type MediaFolder = Schemas['MediaFolder'];
export type UploadResult = Schemas['MediaUploadResult'];
export type MediaUpdate = Schemas['UpdateMediaRequest'];

/** List filters, as the library screen and the picker use them. */
export interface MediaFilters {
  /** A folder ID, `unfiled` (Main library) or undefined (everything). */
  folderId?: string;
  /** Comma-separated MIME types or families, e.g. `image/*`. */
  mimeType?: string;
  filename?: string;
}

export const mediaKeys = {
  all: ['media'] as const,
  list: (filters: MediaFilters) => ['media', 'list', filters] as const,
  folders: ['media', 'folders'] as const,
};

export const PAGE_SIZE = 48;

export function listMedia(filters: MediaFilters, cursor?: string) {
  return unwrap(
    api.GET('/media', {
      params: {
        query: {
          limit: PAGE_SIZE,
          cursor,
          folderId: filters.folderId,
          mimeType: filters.mimeType || undefined,
          filename: filters.filename || undefined,
        },
      },
    }),
  );
}

export const listFolders = () => unwrap(api.GET('/media/folders', { params: { query: { limit: 100 } } }));
export const createFolder = (name: string) => unwrap(api.POST('/media/folders', { body: { name } }));
export const renameFolder = (id: string, name: string) =>
  unwrap(api.PUT('/media/folders/{id}', { params: { path: { id } }, body: { name } }));
export const deleteFolder = (id: string) => unwrap(api.DELETE('/media/folders/{id}', { params: { path: { id } } }));
export const getMedia = (id: string) =>
  unwrap(api.GET('/media/{id}', { params: { path: { id } } })).then((r) => r.item);
export const updateMedia = (id: string, body: MediaUpdate) =>
  unwrap(api.PUT('/media/{id}', { params: { path: { id } }, body }));
export const deleteMedia = (id: string) => unwrap(api.DELETE('/media/{id}', { params: { path: { id } } }));

export interface UploadHandle<T> {
  done: Promise<T>;
  abort(): void;
}

/** Send a multipart form with progress (0…1) and the envelope unwrapped. */
function sendForm<T>(method: 'POST' | 'PUT', path: string, form: FormData, onProgress: (f: number) => void) {
  const xhr = new XMLHttpRequest();
  const done = new Promise<T>((resolve, reject) => {
    xhr.open(method, API_BASE + path);
    xhr.withCredentials = true;
    const headers = withCsrfHeader(method, new Headers({ Accept: 'application/json' }));
    headers.forEach((value, key) => {
      xhr.setRequestHeader(key, value);
    });
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(networkError(new Error('upload failed')));
    xhr.onabort = () => reject(new ApiError(0, 'ABORTED', 'The upload was cancelled.'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(toApiError(xhr.status, body));
        return;
      }
      const envelope = body as { success?: boolean; data?: T };
      if (envelope?.success !== true) {
        reject(new ApiError(xhr.status, 'HTTP_ERROR', 'The server answered with an unexpected response.'));
        return;
      }
      onProgress(1);
      resolve(envelope.data as T);
    };
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

export interface UploadFields {
  alt?: string;
  folderId?: string;
  fieldId?: string;
}

/** `POST /media` (uploadMedia): 201 new item, or 200 with `deduplicated: true`. */
export function uploadMedia(
  file: File,
  fields: UploadFields,
  onProgress: (f: number) => void,
): UploadHandle<UploadResult> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v) form.append(k, v);
  form.append('file', file, file.name);
  return sendForm<UploadResult>('POST', '/media', form, onProgress);
}

/** `PUT /media/{id}/replace` (replaceMediaImage): same item, new bytes. */
export function replaceMedia(
  id: string,
  file: File,
  onProgress: (f: number) => void,
): UploadHandle<{ item: MediaItem }> {
  const form = new FormData();
  form.append('file', file, file.name);
  return sendForm<{ item: MediaItem }>('PUT', `/media/${seg(id)}/replace`, form, onProgress);
}

/** Usage of one item: its count and coverage, and the entries and settings using it (pages). */
export const mediaUsageCount = (id: string) =>
  unwrap(api.GET('/media/{id}', { params: { path: { id }, query: { includeUsage: '1' } } }));
export const mediaUsagePage = (id: string, cursor?: string) =>
  unwrap(api.GET('/media/{id}/usage', { params: { path: { id }, query: { limit: 20, cursor } } }));

import type { MediaStatus, MediaTable } from '../../db/tables-media.js';
import type { MediaDeps } from './deps.js';
import type { FocalPoint } from './images/sign.js';
import { type SrcsetCandidate, srcsetOf } from './images/srcset.js';
import type { MediaUsage } from './usage.js';

/** Where the service serves file bytes (a route outside the documented contract). */
export const FILE_ROUTE = '/_cms/api/media/file';

/** A media item as every door shows it. */
export interface MediaItem {
  id: string;
  status: MediaStatus;
  filename: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  caption: string | null;
  placeholder: string | null;
  folderId: string | null;
  storageKey: string;
  contentHash: string | null;
  /** Stable address of the file: unchanged when the file is replaced (revalidated by ETag). */
  url: string;
  /** Address of these exact bytes (cached for a year); a replacement gets a new one. */
  immutableUrl: string;
  uploadedBy: string | null;
  /** Where the subject is, kept in the frame by crops; null: the centre. */
  focalPoint: FocalPoint | null;
  /** Responsive image candidates of a ready raster photo (docs/media.md, "Responsive images"); else null. */
  srcset: string | null;
  srcsetCandidates: SrcsetCandidate[] | null;
  createdAt: string;
  updatedAt: string;
  usage?: MediaUsage;
}

export function presentItem(deps: MediaDeps, row: MediaTable, usage?: MediaUsage): MediaItem {
  const base = `${deps.ctx.config.publicUrl}${FILE_ROUTE}`;
  const immutableUrl = deps.storage.publicUrl(row.storage_key) ?? `${base}/${row.storage_key}`;
  const srcset =
    row.status === 'ready'
      ? srcsetOf(deps.ctx.config, {
          id: row.id,
          mimeType: row.mime_type,
          width: row.width === null ? null : Number(row.width),
          height: row.height === null ? null : Number(row.height),
          storageKey: row.storage_key,
          original: immutableUrl,
        })
      : null;
  return {
    id: row.id,
    status: row.status,
    filename: row.filename,
    mimeType: row.mime_type,
    size: Number(row.size),
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    alt: row.alt,
    caption: row.caption,
    placeholder: row.placeholder,
    folderId: row.folder_id,
    storageKey: row.storage_key,
    contentHash: row.content_hash,
    url: `${base}/${row.id}`,
    immutableUrl,
    uploadedBy: row.uploaded_by,
    focalPoint: row.focal_x !== null && row.focal_y !== null ? { x: row.focal_x, y: row.focal_y } : null,
    srcset: srcset?.srcset ?? null,
    srcsetCandidates: srcset?.candidates ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(usage ? { usage } : {}),
  };
}

/**
 * The media copy: each attachment of the export is downloaded from the old
 * site (safeFetch: public addresses only, size and time limits, a type the
 * library accepts) and handed to the media library, which deduplicates it by
 * the SHA-1 of its bytes (`sha1:` import key, computed while the body streams
 * to a staged file) and otherwise stores it like an upload. Rerunning is safe: the same bytes land on the same item, and the
 * URL map comes out complete either way. A file that cannot be copied is
 * listed with its reason; the others go on.
 */
import { type Actor, requirePermission } from '../../../auth/actor.js';
import { isCmsError } from '../../../core/errors.js';
import type { Attachment } from './attachment.js';
import type { MediaCopyDeps } from './deps.js';
import { FetchRefused, safeFetch } from './safe-fetch.js';

/** Downloads in flight at once: the work is network-bound, and the source site should not be hammered. */
const CONCURRENCY = 4;
/** Per file, redirects included. */
const FETCH_TIMEOUT_MS = 60_000;

export type CopyStatus = 'imported' | 'reused' | 'failed';

export interface CopyProgress {
  type: 'progress';
  /** Position of the attachment in the request. */
  index: number;
  total: number;
  url: string;
  sourceId?: string | number;
  status: CopyStatus;
  mediaId?: string;
  newUrl?: string;
  reason?: string;
  message?: string;
}

export interface CopyFailure {
  url: string;
  sourceId?: string | number;
  reason: string;
  message: string;
}

export interface CopyResult {
  /** New library items. */
  imported: number;
  /** Attachments answered by an item already in the library (identical bytes). */
  reused: number;
  failed: CopyFailure[];
  /** Old URL → the library item's URL, for every attachment copied or reused. */
  urlMap: Record<string, string>;
  /** Old URL → library item ID (featured images and other references by ID). */
  mediaIds: Record<string, string>;
}

/** The file name the old site used: the URL's last path segment, decoded. */
function nameFromUrl(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}

async function copyOne(
  deps: MediaCopyDeps,
  actor: Actor,
  a: Attachment,
  folderId: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Pick<CopyProgress, 'status' | 'mediaId' | 'newUrl' | 'reason' | 'message'>> {
  const { config } = deps.ctx;
  try {
    // The body streams to a staged file (hashed on the way); the media service consumes that file.
    const got = await safeFetch(a.url, {
      allowPrivate: config.importAllowPrivateHosts,
      maxBytes: config.maxUploadSize,
      timeoutMs: deps.fetch?.timeoutMs ?? FETCH_TIMEOUT_MS,
      maxRedirects: deps.fetch?.maxRedirects,
      resolve: deps.fetch?.resolve,
      allowedTypes: config.mediaAllowedTypes,
      tmpDir: deps.media.stagingDir,
      signal,
    });
    const { item, deduplicated } = await deps.media.importStaged(actor, got.file, {
      filename: a.filename ?? nameFromUrl(got.url) ?? nameFromUrl(a.url),
      claimedType: got.claimedType,
      alt: a.alt,
      caption: a.caption,
      folderId,
    });
    return { status: deduplicated ? 'reused' : 'imported', mediaId: item.id, newUrl: item.url };
  } catch (err) {
    if (err instanceof FetchRefused) return { status: 'failed', reason: err.reason, message: err.message };
    if (isCmsError(err)) return { status: 'failed', reason: err.code, message: err.message };
    // Not the file's fault (storage, database): logged in full, reported without internals.
    deps.ctx.log.error({ err, url: a.url }, 'media copy failed for an attachment');
    return { status: 'failed', reason: 'INTERNAL_ERROR', message: 'The file could not be stored' };
  }
}

/** Checks that come before the first download (so a door can refuse before it starts answering). */
export async function checkCopy(deps: MediaCopyDeps, actor: Actor, input: { folderId?: string }): Promise<void> {
  requirePermission(actor, 'import:execute');
  requirePermission(actor, 'media:upload');
  if (input.folderId) await deps.media.folders.get(actor, input.folderId);
}

/**
 * Copy the attachments (after checkCopy); `onProgress` hears about each one as
 * it finishes (completion order, with its index). Once `signal` is aborted (the
 * client went away) no further download starts and those in flight stop (their
 * partial files are removed).
 */
export async function runCopy(
  deps: MediaCopyDeps,
  actor: Actor,
  input: { attachments: Attachment[]; folderId?: string },
  onProgress: (p: CopyProgress) => void | Promise<void> = () => {},
  signal?: AbortSignal,
): Promise<CopyResult> {
  const result: CopyResult = { imported: 0, reused: 0, failed: [], urlMap: {}, mediaIds: {} };
  const total = input.attachments.length;
  // The same URL listed twice is downloaded once; later copies wait for the first.
  const byUrl = new Map<string, ReturnType<typeof copyOne>>();
  let next = 0;
  const worker = async () => {
    while (next < total && !signal?.aborted) {
      const index = next++;
      const a = input.attachments[index];
      let pending = byUrl.get(a.url);
      const first = !pending;
      if (!pending) {
        pending = copyOne(deps, actor, a, input.folderId, signal);
        byUrl.set(a.url, pending);
      }
      const out = await pending;
      if (out.status === 'failed') {
        result.failed.push({ url: a.url, sourceId: a.sourceId, reason: out.reason ?? '', message: out.message ?? '' });
      } else {
        result.urlMap[a.url] = out.newUrl as string;
        result.mediaIds[a.url] = out.mediaId as string;
        if (first && out.status === 'imported') result.imported++;
        else result.reused++;
      }
      const status: CopyStatus = !first && out.status === 'imported' ? 'reused' : out.status;
      await onProgress({ type: 'progress', index, total, url: a.url, sourceId: a.sourceId, ...out, status });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, total) }, worker));
  return result;
}

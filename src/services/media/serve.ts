import { notFound } from '../../core/errors.js';
import { type ByteRange, type ObjectHeaders, type ReadResult, STORAGE_KEY } from '../../storage/index.js';
import type { MediaDeps } from './deps.js';
import { IMMUTABLE, objectHeaders } from './files.js';

/** A ready file as the file route serves it. */
export interface ServedFile {
  key: string;
  size: number;
  /** Strong validator: the SHA-256 of the bytes. */
  etag: string;
  headers: ObjectHeaders;
  /** Addressed by storage key (bytes that never change) rather than by item ID. */
  immutable: boolean;
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** Addressed by ID the bytes can change (replace): caches must revalidate. */
const REVALIDATE = 'public, no-cache';
/** Presigned URLs live an hour; a redirect to one is cached for less. */
const PRESIGN_SECONDS = 3600;

/**
 * The public file route: anyone may read a ready item's bytes (they are the
 * site's assets), by item ID (`url`) or by storage key (`immutableUrl`).
 * Pending uploads are never served.
 */
export function serveOps(deps: MediaDeps) {
  const { ctx, storage } = deps;

  async function resolve(ref: string): Promise<ServedFile> {
    const byKey = STORAGE_KEY.test(ref);
    if (!byKey && !ULID.test(ref)) throw notFound('File');
    const row = await ctx.db
      .selectFrom('_cms_media')
      .select(['storage_key', 'mime_type', 'filename', 'size', 'content_hash'])
      .where(byKey ? 'storage_key' : 'id', '=', ref)
      .where('status', '=', 'ready')
      .executeTakeFirst();
    if (!row) throw notFound('File');
    return {
      key: row.storage_key,
      size: Number(row.size),
      etag: `"${(row.content_hash ?? row.storage_key).replace(/^sha256:/, '')}"`,
      headers: objectHeaders(row.mime_type, row.filename, byKey ? IMMUTABLE : REVALIDATE),
      immutable: byKey,
    };
  }

  /** Where to send the client instead of streaming (object storage), with how long it may keep the redirect. */
  async function redirect(file: ServedFile): Promise<{ location: string; cacheControl: string } | null> {
    const location = await storage.readUrl(file.key, file.headers, PRESIGN_SECONDS);
    if (!location) return null;
    const stable = storage.publicUrl(file.key) !== null;
    const cacheControl = !file.immutable
      ? REVALIDATE
      : stable
        ? IMMUTABLE
        : `private, max-age=${PRESIGN_SECONDS - 600}`;
    return { location, cacheControl };
  }

  function read(file: ServedFile, range?: ByteRange): Promise<ReadResult | null> {
    return storage.read(file.key, range);
  }

  return { resolve, redirect, read };
}

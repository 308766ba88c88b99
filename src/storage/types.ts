import type { Readable } from 'node:stream';

/**
 * Where media bytes live. Keys are flat, immutable names chosen by the media
 * service (`<ulid>.<ext>`): the bytes under a key never change, so a key can
 * be cached forever; a replaced file gets a new key.
 */
export interface ObjectHeaders {
  contentType: string;
  /** `inline` or `attachment; filename=…` */
  contentDisposition?: string;
  cacheControl?: string;
}

export interface ObjectInfo {
  size: number;
}

/** One stored object as `Storage.list` yields it. */
export interface ListedObject {
  /** The key as `head`, `read` and `delete` take it (a bucket's key prefix removed). */
  key: string;
  size: number;
  /** When the bytes were written (file modification time, S3 LastModified). */
  modifiedAt: Date;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface ReadResult {
  body: Readable;
  /** Size of the whole object. */
  size: number;
}

/** How a client sends bytes for a pending upload. */
export interface UploadTarget {
  /** Absolute presigned URL, or null for the service's own same-origin route. */
  url: string | null;
  method: 'PUT';
  headers: Record<string, string>;
}

export interface Storage {
  readonly kind: 'file' | 's3';
  /** Store the local file at `path` under `key` (the file is consumed: moved or uploaded, then removed). */
  putFile(key: string, path: string, headers: ObjectHeaders): Promise<ObjectInfo>;
  /** Size of the stored object, or null when there is none. */
  head(key: string): Promise<ObjectInfo | null>;
  /** The object's bytes (or one range of them), or null when there is none. */
  read(key: string, range?: ByteRange): Promise<ReadResult | null>;
  /** Remove the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Remove every object under a derived prefix (`DERIVED_PREFIX`); an empty prefix is not an error. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Every stored object whose key starts with `prefix` (all of them by default), in no set order,
   * read a page or a folder at a time (memory stays flat however many there are). An object
   * written or removed while the listing runs may or may not be in it. Objects this store holds
   * that no key names (a stray file in the media folder) are listed under their path relative to
   * the store, so whoever reads the list sees them; `assertKey` tells which ones are keys.
   */
  list(prefix?: string): AsyncIterable<ListedObject>;
  /** A path on this machine holding the object, when the store is the local file system (no copy needed). */
  localPath(key: string): string | null;
  /** Where a client uploads the bytes of a pending item; null URL means the same-origin route. */
  uploadTarget(key: string, headers: ObjectHeaders, size: number, expiresInSeconds: number): Promise<UploadTarget>;
  /**
   * A URL that serves the object without going through the service (public
   * base URL or presigned GET), or null when the service streams it itself.
   */
  readUrl(key: string, headers: ObjectHeaders, expiresInSeconds: number): Promise<string | null>;
  /** A stable public URL for the key when the store has one (no expiry), else null. */
  publicUrl(key: string): string | null;
}

/** Keys the media service generates: `<ulid>.<ext>`; anything else is refused before it reaches a store. */
export const STORAGE_KEY = /^[0-9A-HJKMNP-TV-Z]{26}\.[a-z0-9]{1,10}$/;

/**
 * Keys of derived objects (responsive image derivatives): `derived/<item id>/<16 hex of the
 * content hash>/[f<8 hex of the focal point>/]<20 hex>.<ext>`. Kept apart from the originals so
 * an item's derivatives (or those of one version of its file) go with one prefix.
 */
export const DERIVED_KEY =
  /^derived\/[0-9A-HJKMNP-TV-Z]{26}\/[0-9a-f]{16}\/(f[0-9a-f]{8}\/)?[0-9a-f]{20}\.(webp|avif|jpg|png)$/;

/** Prefixes `deletePrefix` takes: all of an item's derivatives, those of one file version, or of one focal point. */
export const DERIVED_PREFIX = /^derived\/[0-9A-HJKMNP-TV-Z]{26}\/([0-9a-f]{16}\/(f[0-9a-f]{8}\/)?)?$/;

export function assertKey(key: string): string {
  if (!STORAGE_KEY.test(key) && !DERIVED_KEY.test(key)) throw new Error(`invalid storage key: ${key}`);
  return key;
}

export function assertPrefix(prefix: string): string {
  if (!DERIVED_PREFIX.test(prefix)) throw new Error(`invalid storage prefix: ${prefix}`);
  return prefix;
}

import { z } from 'zod';
import { sha256Hex } from '../../core/ids.js';

/**
 * The site package: `manifest.json` and the files it lists. Record files are
 * newline-delimited JSON (one row per line, column name → value) under
 * `records/<kind>/NNNNN.ndjson` (entries: `records/entries/<collection>/…`);
 * media bytes are `media/<media ID>.<ext>`. The manifest names every file
 * with its size and SHA-256, so a package can be checked file by file, and
 * its own SHA-256 is the package digest.
 */
export const PACKAGE_FORMAT = 'cms-site-package';
export const PACKAGE_FORMAT_VERSION = 1;

export const MANIFEST_PATH = 'manifest.json';
/** The kind of a file holding one media item's bytes (record files are named by their record kind). */
export const MEDIA_FILE_KIND = 'mediaFile';

/** Most files one package may list (keeps the manifest and a plan bounded). */
export const MAX_PACKAGE_FILES = 200_000;
/** Largest manifest accepted by an import, in bytes. */
export const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

const FILE_PATH =
  /^(?:records\/[a-zA-Z]+\/(?:[a-z][a-z0-9_]*\/)?\d{5,9}\.ndjson|media\/[0-9A-HJKMNP-TV-Z]{26}\.[a-z0-9]{1,10})$/;
const HEX64 = /^[0-9a-f]{64}$/;

export const ManifestFileSchema = z
  .object({
    path: z.string().max(200).regex(FILE_PATH),
    kind: z.string().min(1).max(40),
    collection: z.string().min(1).max(64).optional(),
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    sha256: z.string().regex(HEX64),
    records: z.number().int().min(0).optional(),
  })
  .strict();

export type ManifestFile = z.infer<typeof ManifestFileSchema>;

const Counts = z.record(z.string().max(40), z.number().int().min(0));

export const ManifestSchema = z
  .object({
    format: z.literal(PACKAGE_FORMAT),
    formatVersion: z.number().int().min(1),
    generator: z.object({ name: z.string().max(100), version: z.string().max(40) }).strict(),
    /** The last database migration of the site that wrote it. */
    schemaVersion: z.string().max(100),
    createdAt: z.string().max(40),
    source: z
      .object({
        url: z.string().max(2000),
        title: z.string().max(500).nullable(),
        tagline: z.string().max(2000).nullable(),
        locales: z.array(z.string().max(35)).max(500),
        defaultLocale: z.string().max(35),
      })
      .strict(),
    options: z.object({ comments: z.boolean() }).strict(),
    files: z.array(ManifestFileSchema).max(MAX_PACKAGE_FILES),
    totals: z
      .object({
        records: Counts,
        media: z.object({ count: z.number().int().min(0), bytes: z.number().int().min(0) }).strict(),
        files: z.object({ count: z.number().int().min(0), bytes: z.number().int().min(0) }).strict(),
      })
      .strict(),
    /** Media items left out because their bytes were missing from storage when the export read them. */
    skippedMedia: z.array(z.string().max(26)).max(1000),
  })
  .strict();

export type Manifest = z.infer<typeof ManifestSchema>;

/** The package digest: SHA-256 of the manifest's bytes, as served. */
export function packageDigest(manifestText: string): string {
  return `sha256:${sha256Hex(manifestText)}`;
}

/** Record file of `kind` number `n` (1-based). */
export function recordPath(kind: string, n: number, collection?: string): string {
  const name = `${String(n).padStart(5, '0')}.ndjson`;
  return collection ? `records/${kind}/${collection}/${name}` : `records/${kind}/${name}`;
}

/** Media bytes of one library item: `media/<ID>.<ext of its stored object>`. */
export function mediaPath(mediaId: string, storageKey: string): string {
  const ext = storageKey.slice(storageKey.lastIndexOf('.') + 1);
  return `media/${mediaId}.${ext}`;
}

export function isPackagePath(path: string): boolean {
  return FILE_PATH.test(path);
}

import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * Media options: where file bytes live and which files the library accepts.
 *   file: { "storage": { "url": "s3://bucket/prefix", "endpoint": "http://127.0.0.1:9000", "region": "us-east-1",
 *           "forcePathStyle": true, "publicUrl": "https://cdn.example.com/media" },
 *           "mediaAllowedTypes": ["image/*", "application/pdf"], "maxImagePixels": 100000000 }
 *   env:  CMS_STORAGE_URL, CMS_S3_ENDPOINT, CMS_S3_REGION (or AWS_REGION), CMS_S3_FORCE_PATH_STYLE,
 *         CMS_S3_PUBLIC_URL, CMS_S3_TIMEOUT_MS, CMS_MEDIA_ALLOWED_TYPES (comma-separated), CMS_MAX_IMAGE_PIXELS.
 * S3 credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY,
 * profiles, instance roles) unless `accessKeyId` and `secretAccessKey` are given in the file.
 */
const mimePattern = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/,
    'expected a MIME type such as "image/png" or "image/*"',
  );

export const storageSchema = z
  .object({
    url: z
      .string()
      .regex(/^(file:|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/|$))/, 'must be "file:PATH" or "s3://bucket[/prefix]"')
      .optional(),
    endpoint: z.url({ protocol: /^https?$/ }).optional(),
    region: z.string().min(1).optional(),
    forcePathStyle: z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
      .transform((v) => v === true || v === 'true' || v === '1')
      .optional(),
    publicUrl: z.url({ protocol: /^https?$/ }).optional(),
    accessKeyId: z.string().min(1).optional(),
    secretAccessKey: z.string().min(1).optional(),
    /** S3: how long a connection may take to open, and a request may go without a byte, before it fails. */
    timeoutMs: z.coerce.number().int().min(100).max(600_000).optional(),
  })
  .strict();

export const mediaAllowedTypesSchema = z.array(mimePattern).min(1);

/** Files the library accepts when `mediaAllowedTypes` is not configured. HTML is left out on purpose. */
export const DEFAULT_MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/tiff',
  'image/heic',
  'image/heif',
  'video/*',
  'audio/*',
  'application/pdf',
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
  'application/zip',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/epub+zip',
  'font/woff',
  'font/woff2',
  'font/ttf',
  'font/otf',
];

/** 100 megapixels: larger images are refused before they are decoded (decompression bombs). */
export const DEFAULT_MAX_IMAGE_PIXELS = 100_000_000;

export type StorageConfig =
  | { kind: 'file'; root: string }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix inside the bucket, without leading or trailing slash ('' for none). */
      prefix: string;
      endpoint: string | null;
      region: string;
      forcePathStyle: boolean;
      /** Base URL under which objects are publicly readable (a CDN or a public bucket); null → presigned URLs. */
      publicUrl: string | null;
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
      /** Connect and inactivity timeout of each request to the bucket. */
      timeoutMs: number;
    };

/** A bucket that answers nothing for this long is unavailable (an upload keeps sending, so it never idles that long). */
export const DEFAULT_S3_TIMEOUT_MS = 15_000;

/** Complete the storage option: the file system under the data directory unless an S3 URL is given. */
export function resolveStorage(input: z.output<typeof storageSchema> | undefined, dataDir: string): StorageConfig {
  const url = input?.url ?? 'file:';
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    return { kind: 'file', root: path ? resolve(path) : resolve(dataDir, 'media') };
  }
  const rest = url.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const prefix = slash < 0 ? '' : rest.slice(slash + 1).replace(/^\/+|\/+$/g, '');
  const credentials =
    input?.accessKeyId && input.secretAccessKey
      ? { accessKeyId: input.accessKeyId, secretAccessKey: input.secretAccessKey }
      : null;
  return {
    kind: 's3',
    bucket,
    prefix,
    endpoint: input?.endpoint ?? null,
    region: input?.region ?? 'us-east-1',
    forcePathStyle: input?.forcePathStyle ?? Boolean(input?.endpoint),
    publicUrl: input?.publicUrl?.replace(/\/+$/, '') ?? null,
    credentials,
    timeoutMs: input?.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS,
  };
}

const STORAGE_ENV: Record<string, keyof z.input<typeof storageSchema>> = {
  CMS_STORAGE_URL: 'url',
  CMS_S3_ENDPOINT: 'endpoint',
  CMS_S3_REGION: 'region',
  CMS_S3_FORCE_PATH_STYLE: 'forcePathStyle',
  CMS_S3_PUBLIC_URL: 'publicUrl',
  CMS_S3_TIMEOUT_MS: 'timeoutMs',
};

/** The storage option as the environment sets it, merged over the file's; null when no variable is set. */
export function storageFromEnv(
  env: NodeJS.ProcessEnv,
  fromFile: unknown,
): { value: Record<string, unknown>; source: string } | null {
  const value: Record<string, unknown> =
    typeof fromFile === 'object' && fromFile !== null ? { ...(fromFile as Record<string, unknown>) } : {};
  let source: string | null = null;
  for (const [name, key] of Object.entries(STORAGE_ENV)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    value[key] = raw;
    source ??= name;
  }
  if (value.region === undefined && env.AWS_REGION) {
    value.region = env.AWS_REGION;
    source ??= 'AWS_REGION';
  }
  return source ? { value, source } : null;
}

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { type AuthConfig, authSchema, resolveAuth } from './config-auth.js';
import { type EmailConfig, emailFromEnv, emailSchema, resolveEmail } from './config-email.js';
import { ConfigError } from './config-error.js';
import { IMAGE_ENV_KEYS, type ImageConfig, imageConfigShape, resolveImages } from './config-images.js';
import {
  DEFAULT_MAX_IMAGE_PIXELS,
  DEFAULT_MEDIA_TYPES,
  mediaAllowedTypesSchema,
  resolveStorage,
  type StorageConfig,
  storageFromEnv,
  storageSchema,
} from './config-media.js';
import { type ProviderSettings, resolveProviders } from './config-providers.js';

/**
 * SQLite's own default page cache (2 MiB). The better-sqlite3 build raises it to 16 MiB, which under
 * writes becomes resident memory of the process; pages beyond it are read from the OS's file cache.
 */
export const DEFAULT_SQLITE_CACHE_SIZE = 2 * 1024 * 1024;

/**
 * Configuration: defaults, then an optional JSON file (`cms.config.json` in the
 * working directory or the path in CMS_CONFIG), then environment variables.
 * Every option is documented in the README's configuration table.
 */
const localeCode = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'expected a locale code such as "en" or "pt-BR"');

const i18nSchema = z
  .object({
    locales: z.array(localeCode).min(1),
    defaultLocale: localeCode,
    fallback: z.record(z.string(), localeCode).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.locales.includes(v.defaultLocale)) {
      ctx.addIssue({ code: 'custom', path: ['defaultLocale'], message: 'must be one of i18n.locales' });
    }
    for (const [from, to] of Object.entries(v.fallback ?? {})) {
      if (!v.locales.includes(from))
        ctx.addIssue({ code: 'custom', path: ['fallback', from], message: 'is not one of i18n.locales' });
      if (!v.locales.includes(to))
        ctx.addIssue({
          code: 'custom',
          path: ['fallback', from],
          message: `fallback "${to}" is not one of i18n.locales`,
        });
    }
  });

const trustedHeader = z.enum([
  'x-forwarded-for',
  'x-real-ip',
  'cf-connecting-ip',
  'true-client-ip',
  'fly-client-ip',
  'forwarded',
]);

export const configSchema = z
  .object({
    port: z.coerce.number().int().min(0).max(65535).default(4321),
    host: z.string().min(1).default('127.0.0.1'),
    dataDir: z.string().min(1).default('./data'),
    databaseUrl: z
      .string()
      .regex(/^(sqlite:|postgres:\/\/|postgresql:\/\/)/, 'must start with "sqlite:" or "postgres://"')
      .optional(),
    publicUrl: z.url({ protocol: /^https?$/ }).optional(),
    i18n: i18nSchema.optional(),
    maxUploadSize: z.coerce
      .number()
      .int()
      .positive()
      .default(50 * 1024 * 1024),
    jsonBodyLimit: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .default(4 * 1024 * 1024),
    trustedProxyHeaders: z.array(trustedHeader).default([]),
    notFoundLogLimit: z.coerce.number().int().min(100).max(1_000_000).default(10_000),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    email: emailSchema.optional(),
    // Authentication mode (file only): absent is the default mode; config-auth.ts has the gateway mode's options.
    auth: authSchema.optional(),
    storage: storageSchema.optional(),
    mediaAllowedTypes: mediaAllowedTypesSchema.optional(),
    maxImagePixels: z.coerce.number().int().positive().default(DEFAULT_MAX_IMAGE_PIXELS),
    // Responsive images: widths, presets, output bound, transform slots, signing key (config-images.ts).
    ...imageConfigShape,
    searchRebuildBatch: z.coerce.number().int().min(1).max(10_000).default(500),
    searchRankWindow: z.coerce.number().int().min(100).max(1_000_000).default(5_000),
    searchHeadSize: z.coerce.number().int().min(2).max(10_000).default(100),
    searchHeadThreshold: z.coerce.number().int().min(2).max(1_000_000).default(250),
    // Off unless set to 1/true: imports then may fetch from loopback and private networks (tests, local development).
    importAllowPrivateHosts: z
      .union([z.boolean(), z.enum(['1', '0', 'true', 'false', ''])])
      .transform((v) => v === true || v === '1' || v === 'true')
      .default(false),
    // WordPress import: the export's XML (after gunzip) and each record in it are bounded (docs/import.md, "Limits").
    importMaxExportBytes: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .default(1024 ** 3),
    importMaxElementBytes: z.coerce
      .number()
      .int()
      .min(4 * 1024)
      .default(32 * 1024 ** 2),
    mediaUsageBatch: z.coerce.number().int().min(1).max(10_000).default(500),
    // How long a claimed media usage work item stays with its process: a killed holder's item is claimable after it.
    mediaUsageLeaseMs: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
    sqliteCacheSize: z.coerce
      .number()
      .int()
      .min(256 * 1024)
      .max(4 * 1024 ** 3)
      .default(DEFAULT_SQLITE_CACHE_SIZE),
    // Preview links: seconds a preview token reads its draft (docs/frontends.md); a minute to a week.
    previewTokenTtl: z.coerce.number().int().min(60).max(604_800).default(3_600),
    // SQLite: snapshots kept of the database file, taken before migrations change it (docs/operations.md); 0 is off.
    migrationSnapshots: z.coerce.number().int().min(0).max(100).default(3),
    // Off unless set to 1/true: REST responses then carry a Server-Timing header (database time, statements, total).
    serverTiming: z
      .union([z.boolean(), z.enum(['1', '0', 'true', 'false', ''])])
      .transform((v) => v === true || v === '1' || v === 'true')
      .default(false),
    // Login providers, an ordered list (file only): validated by resolveProviders, which names the key at fault.
    providers: z.unknown().optional(),
  })
  .strict();

export type ConfigInput = z.input<typeof configSchema>;

export interface I18nConfig {
  locales: string[];
  defaultLocale: string;
  fallback: Record<string, string>;
  /** false when the site is single-language (no i18n block in the configuration). */
  enabled: boolean;
}

export interface CmsConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  publicUrl: string;
  i18n: I18nConfig;
  maxUploadSize: number;
  /** Largest accepted JSON (or other non-upload) request body from a signed-in caller, in bytes. */
  jsonBodyLimit: number;
  trustedProxyHeaders: string[];
  /** Rows the 404 log keeps at most (least-seen, oldest evicted first). */
  notFoundLogLimit: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Outgoing mail (magic links, invites, sign-up); null when email is not configured. */
  email: EmailConfig | null;
  /** Authentication mode: the default (passkeys, login providers) or the edge access gateway (config-auth.ts). */
  auth: AuthConfig;
  /** Where media bytes live: the file system (default, under dataDir/media) or an S3-compatible bucket. */
  storage: StorageConfig;
  /** MIME types (or `type/*` families) the media library accepts. */
  mediaAllowedTypes: string[];
  /** Images with more pixels than this are refused before decoding. */
  maxImagePixels: number;
  /** Responsive images: transform bounds and signing (config-images.ts). */
  images: ImageConfig;
  /** Entries per search index rebuild step; collections this small are rebuilt at once. */
  searchRebuildBatch: number;
  /** Matches a search ranks at most per collection (the best of them come first). */
  searchRankWindow: number;
  /** Entries the head list of a common word keeps (its best for that word alone). */
  searchHeadSize: number;
  /** Documents a word (or prefix) must be found in, when an index is built, to get a head list. */
  searchHeadThreshold: number;
  /** Imports may fetch media from loopback and private addresses (never link-local); off by default. */
  importAllowPrivateHosts: boolean;
  /** Largest WordPress export, in bytes of XML: the upload, and the text a `.xml.gz` decompresses to. */
  importMaxExportBytes: number;
  /** Largest record of a WordPress export (an item with its content, custom fields and comments; any one element). */
  importMaxElementBytes: number;
  /** Entries one media usage indexing step (activation, repair) reads. */
  mediaUsageBatch: number;
  /** Milliseconds a claimed media usage work item stays with the process that claimed it. */
  mediaUsageLeaseMs: number;
  /** SQLite only: bytes of database pages the connection keeps in memory (the OS caches the rest of the file). */
  sqliteCacheSize: number;
  /** Seconds a preview token (one entry's draft, for the site's front end) stays valid. */
  previewTokenTtl: number;
  /** SQLite only: how many pre-migration snapshots of the database file to keep (0 takes none). */
  migrationSnapshots: number;
  /** REST responses carry `Server-Timing` (database time and statements of the request, total time); off by default. */
  serverTiming: boolean;
  /** Login providers in list order, with their credentials from the environment (config-providers.ts). */
  providers: ProviderSettings[];
}

export { ConfigError };

const ENV_KEYS: Record<string, keyof ConfigInput> = {
  PORT: 'port',
  HOST: 'host',
  CMS_DATA_DIR: 'dataDir',
  CMS_DATABASE_URL: 'databaseUrl',
  CMS_PUBLIC_URL: 'publicUrl',
  CMS_MAX_UPLOAD_SIZE: 'maxUploadSize',
  CMS_JSON_BODY_LIMIT: 'jsonBodyLimit',
  CMS_TRUSTED_PROXY_HEADERS: 'trustedProxyHeaders',
  CMS_NOT_FOUND_LOG_LIMIT: 'notFoundLogLimit',
  CMS_LOG_LEVEL: 'logLevel',
  CMS_MEDIA_ALLOWED_TYPES: 'mediaAllowedTypes',
  CMS_MAX_IMAGE_PIXELS: 'maxImagePixels',
  ...IMAGE_ENV_KEYS,
  CMS_SEARCH_REBUILD_BATCH: 'searchRebuildBatch',
  CMS_SEARCH_RANK_WINDOW: 'searchRankWindow',
  CMS_SEARCH_HEAD_SIZE: 'searchHeadSize',
  CMS_SEARCH_HEAD_THRESHOLD: 'searchHeadThreshold',
  CMS_IMPORT_ALLOW_PRIVATE_HOSTS: 'importAllowPrivateHosts',
  CMS_IMPORT_MAX_EXPORT_BYTES: 'importMaxExportBytes',
  CMS_IMPORT_MAX_ELEMENT_BYTES: 'importMaxElementBytes',
  CMS_MEDIA_USAGE_BATCH: 'mediaUsageBatch',
  CMS_MEDIA_USAGE_LEASE_MS: 'mediaUsageLeaseMs',
  CMS_SQLITE_CACHE_SIZE: 'sqliteCacheSize',
  CMS_PREVIEW_TOKEN_TTL: 'previewTokenTtl',
  CMS_MIGRATION_SNAPSHOTS: 'migrationSnapshots',
  CMS_SERVER_TIMING: 'serverTiming',
};

/** Validate and complete a configuration object (used by tests and the library entry). */
export function resolveConfig(
  input: ConfigInput,
  source: (key: string) => string = (k) => k,
  env: NodeJS.ProcessEnv = process.env,
): CmsConfig {
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    const message = issue.code === 'unrecognized_keys' ? 'unknown option' : issue.message;
    throw new ConfigError(source(key || '(root)'), message);
  }
  const v = parsed.data;
  const dataDir = resolve(v.dataDir);
  const i18n: I18nConfig = v.i18n
    ? { locales: v.i18n.locales, defaultLocale: v.i18n.defaultLocale, fallback: v.i18n.fallback ?? {}, enabled: true }
    : { locales: ['en'], defaultLocale: 'en', fallback: {}, enabled: false };
  // Loopback and wildcard binds are reached as `localhost`: browsers refuse IP addresses as a passkey relying party.
  const loopback = ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(v.host);
  const publicHost = loopback ? 'localhost' : v.host;
  const publicUrl = (
    v.publicUrl ?? `http://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${v.port}`
  ).replace(/\/+$/, '');
  return {
    port: v.port,
    host: v.host,
    dataDir,
    databaseUrl: v.databaseUrl ?? `sqlite:${resolve(dataDir, 'cms.db')}`,
    publicUrl,
    i18n,
    maxUploadSize: v.maxUploadSize,
    jsonBodyLimit: v.jsonBodyLimit,
    trustedProxyHeaders: v.trustedProxyHeaders.map((h) => h.toLowerCase()),
    notFoundLogLimit: v.notFoundLogLimit,
    logLevel: v.logLevel,
    email: resolveEmail(v.email, publicUrl),
    auth: resolveAuth(v.auth, { providers: v.providers, env }),
    storage: resolveStorage(v.storage, dataDir),
    mediaAllowedTypes: v.mediaAllowedTypes ?? DEFAULT_MEDIA_TYPES,
    maxImagePixels: v.maxImagePixels,
    images: resolveImages(v),
    searchRebuildBatch: v.searchRebuildBatch,
    searchRankWindow: v.searchRankWindow,
    searchHeadSize: v.searchHeadSize,
    searchHeadThreshold: v.searchHeadThreshold,
    importAllowPrivateHosts: v.importAllowPrivateHosts,
    importMaxExportBytes: v.importMaxExportBytes,
    importMaxElementBytes: v.importMaxElementBytes,
    mediaUsageBatch: v.mediaUsageBatch,
    mediaUsageLeaseMs: v.mediaUsageLeaseMs,
    sqliteCacheSize: v.sqliteCacheSize,
    previewTokenTtl: v.previewTokenTtl,
    migrationSnapshots: v.migrationSnapshots,
    serverTiming: v.serverTiming,
    providers: resolveProviders(v.providers, env),
  };
}

/** Read the file and the environment, then validate. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CmsConfig {
  const explicit = env.CMS_CONFIG;
  const filePath = explicit ? resolve(cwd, explicit) : resolve(cwd, 'cms.config.json');
  let fromFile: Record<string, unknown> = {};
  if (existsSync(filePath)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(filePath, 'utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new ConfigError(filePath, 'must hold a JSON object');
      }
      fromFile = parsed as Record<string, unknown>;
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      throw new ConfigError(filePath, `is not valid JSON (${(err as Error).message})`);
    }
  } else if (explicit) {
    throw new ConfigError('CMS_CONFIG', `file ${filePath} does not exist`);
  }

  const merged: Record<string, unknown> = { ...fromFile };
  const origin: Record<string, string> = {};
  for (const [envKey, key] of Object.entries(ENV_KEYS)) {
    const raw = env[envKey];
    if (raw === undefined || raw === '') continue;
    merged[key] =
      key === 'trustedProxyHeaders' || key === 'mediaAllowedTypes'
        ? raw
            .split(',')
            .map((s) => s.trim().toLowerCase())
            .filter(Boolean)
        : raw;
    origin[key] = envKey;
  }
  const email = emailFromEnv(env, merged.email);
  if (email) {
    merged.email = email.value;
    origin.email = email.source;
  }
  const storage = storageFromEnv(env, merged.storage);
  if (storage) {
    merged.storage = storage.value;
    origin.storage = storage.source;
  }
  if (merged.dataDir !== undefined && typeof merged.dataDir === 'string') merged.dataDir = resolve(cwd, merged.dataDir);
  else merged.dataDir = resolve(cwd, 'data');
  return resolveConfig(merged as ConfigInput, (key) => origin[key.split('.')[0]] ?? key, env);
}

import { createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../core/config-media.js';
import { CmsError, UNREACHABLE_CODES } from '../core/errors.js';
import {
  assertKey,
  assertPrefix,
  type ByteRange,
  type ListedObject,
  type ObjectHeaders,
  type ObjectInfo,
  type ReadResult,
  type Storage,
  type UploadTarget,
} from './types.js';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

/** The AWS SDK is a large module graph: loaded on the first storage call, not at start-up. */
let sdkModules: Promise<{
  s3: typeof import('@aws-sdk/client-s3');
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
}> | null = null;
const loadSdk = () =>
  (sdkModules ??= Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]).then(([s3, storage, presigner]) => ({ s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl })));

/** Parts of 8 MiB, two in flight: a large upload holds at most ~16 MiB in memory. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * The bucket is not there to answer (refused, reset, timed out, or a 5xx after the SDK's retries):
 * a 503 STORAGE_UNAVAILABLE the caller can retry, not a 500. A refusal of the request itself (a
 * 4xx: missing object, denied credentials) stays what it is.
 */
function storageFailure(err: unknown): unknown {
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const down =
    (status !== undefined && status >= 500) ||
    (e.code !== undefined && UNREACHABLE_CODES.has(e.code)) ||
    e.name === 'TimeoutError' ||
    e.name === 'RequestTimeout';
  return down
    ? new CmsError('STORAGE_UNAVAILABLE', 'The media storage is unavailable; try again shortly', { retryAfter: 5 })
    : err;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/**
 * Media bytes in an S3-compatible bucket (AWS S3, MinIO, R2, …). Reads go to
 * the public base URL when one is configured, else to short-lived presigned
 * URLs; pending uploads get a presigned PUT.
 */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private client: Promise<{ client: S3Client; sdk: Awaited<ReturnType<typeof loadSdk>> }> | null = null;

  /** `pageSize`: keys per ListObjectsV2 page (S3 answers at most 1,000; a test asks for fewer to see paging). */
  constructor(
    private readonly config: S3Config,
    private readonly pageSize = 1000,
  ) {}

  private connect() {
    const { config } = this;
    this.client ??= loadSdk().then((sdk) => {
      const client = new sdk.s3.S3Client({
        region: config.region,
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        forcePathStyle: config.forcePathStyle,
        ...(config.credentials ? { credentials: config.credentials } : {}),
        // Checksums only where S3 demands them: several S3-compatible servers reject the default trailers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // Without these a bucket that stops answering holds a request (and its upload) forever.
        // (this SDK only warns about a request past its timeout unless told to fail it).
        requestHandler: {
          connectionTimeout: config.timeoutMs,
          requestTimeout: config.timeoutMs,
          throwOnRequestTimeout: true,
        },
      });
      // Outermost step: what reaches the caller after the SDK's own retries.
      client.middlewareStack.add(
        (next) => async (args) => {
          try {
            return await next(args);
          } catch (err) {
            throw storageFailure(err);
          }
        },
        { step: 'initialize', name: 'cmsStorageFailure' },
      );
      return { sdk, client };
    });
    return this.client;
  }

  private objectKey(key: string): string {
    assertKey(key);
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  async putFile(key: string, path: string, headers: ObjectHeaders): Promise<ObjectInfo> {
    const { size } = await stat(path);
    const { client, sdk } = await this.connect();
    const upload = new sdk.Upload({
      client,
      queueSize: 2,
      partSize: PART_SIZE,
      leavePartsOnError: false,
      params: {
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(path),
        ContentType: headers.contentType,
        ContentDisposition: headers.contentDisposition,
        CacheControl: headers.cacheControl,
      },
    });
    await upload.done();
    await unlink(path).catch(() => {});
    return { size };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const { client, sdk } = await this.connect();
    try {
      const out = await client.send(
        new sdk.s3.HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
      );
      return { size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: ByteRange): Promise<ReadResult | null> {
    const { client, sdk } = await this.connect();
    try {
      const out = await client.send(
        new sdk.s3.GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = out.ContentRange ? Number(out.ContentRange.split('/')[1]) : Number(out.ContentLength ?? 0);
      return { body: out.Body as Readable, size: total };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const { client, sdk } = await this.connect();
    await client.send(new sdk.s3.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
  }

  /** List the prefix a page at a time and delete each page in one request (S3 takes up to 1,000 keys). */
  async deletePrefix(prefix: string): Promise<void> {
    const { client, sdk } = await this.connect();
    const Prefix = this.config.prefix ? `${this.config.prefix}/${assertPrefix(prefix)}` : assertPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.s3.ListObjectsV2Command({ Bucket: this.config.bucket, Prefix, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length) {
        await client.send(
          new sdk.s3.DeleteObjectsCommand({ Bucket: this.config.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * ListObjectsV2 a page at a time, following continuation tokens. The bucket's key prefix
   * ends in a slash when listed, so the objects of `site` are not mixed with those of `site2`.
   */
  async *list(prefix = ''): AsyncIterable<ListedObject> {
    const { client, sdk } = await this.connect();
    const base = this.config.prefix ? `${this.config.prefix}/` : '';
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.s3.ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: base + prefix,
          MaxKeys: this.pageSize,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? []) {
        if (!o.Key?.startsWith(base)) continue;
        yield { key: o.Key.slice(base.length), size: Number(o.Size ?? 0), modifiedAt: o.LastModified ?? new Date() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  localPath(): string | null {
    return null;
  }

  async uploadTarget(key: string, headers: ObjectHeaders, size: number, expiresIn: number): Promise<UploadTarget> {
    const { client, sdk } = await this.connect();
    const command = new sdk.s3.PutObjectCommand({
      Bucket: this.config.bucket,
      Key: this.objectKey(key),
      ContentType: headers.contentType,
      ContentLength: size,
      ...(headers.contentDisposition ? { ContentDisposition: headers.contentDisposition } : {}),
      ...(headers.cacheControl ? { CacheControl: headers.cacheControl } : {}),
    });
    const url = await sdk.getSignedUrl(client, command, {
      expiresIn,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    const sent: Record<string, string> = { 'Content-Type': headers.contentType };
    if (headers.contentDisposition) sent['Content-Disposition'] = headers.contentDisposition;
    if (headers.cacheControl) sent['Cache-Control'] = headers.cacheControl;
    return { url, method: 'PUT', headers: sent };
  }

  async readUrl(key: string, headers: ObjectHeaders, expiresIn: number): Promise<string | null> {
    const direct = this.publicUrl(key);
    if (direct) return direct;
    const { client, sdk } = await this.connect();
    return sdk.getSignedUrl(
      client,
      new sdk.s3.GetObjectCommand({
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        ResponseContentType: headers.contentType,
        ResponseContentDisposition: headers.contentDisposition,
        ResponseCacheControl: headers.cacheControl,
      }),
      { expiresIn },
    );
  }

  publicUrl(key: string): string | null {
    return this.config.publicUrl ? `${this.config.publicUrl}/${this.objectKey(key)}` : null;
  }
}

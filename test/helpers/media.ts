import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import type { ConfigInput } from '../../src/core/config.js';
import type { DialectName } from '../../src/db/dialect.js';
import type { Cms } from '../../src/index.js';
import { type TestCms, testCms } from './cms.js';
import { postgresAvailable } from './db.js';

export type StoreKind = 'file' | 's3';

/** A real S3-compatible server (s3rver) for the suites of one file. */
export interface S3Fixture {
  endpoint: string;
  bucket: string;
  dir: string;
}

let s3: { server: S3rver; fixture: S3Fixture; users: number } | null = null;

/** Start s3rver once per test file (stopped after the file's last suite). */
export function startS3(): () => S3Fixture {
  beforeAll(async () => {
    if (s3) {
      s3.users++;
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'cms-s3rver-'));
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'media', configs: [] }],
    });
    const { port } = (await server.run()) as unknown as { port: number };
    s3 = { server, users: 1, fixture: { endpoint: `http://127.0.0.1:${port}`, bucket: 'media', dir } };
  });
  afterAll(async () => {
    if (!s3) return;
    if (--s3.users > 0) return;
    await s3.server.close();
    rmSync(s3.fixture.dir, { recursive: true, force: true });
    s3 = null;
  });
  return () => {
    if (!s3) throw new Error('s3rver is not running');
    return s3.fixture;
  };
}

/** Run a suite on each database with each store: SQLite and PostgreSQL × file system and S3. */
export function describeEachStore(name: string, fn: (dialect: DialectName, store: StoreKind) => void): void {
  for (const store of ['file', 's3'] as const) {
    describe(`${name} [sqlite, ${store}]`, () => fn('sqlite', store));
    describe.skipIf(!postgresAvailable)(`${name} [postgres, ${store}]`, () => fn('postgres', store));
  }
}

export interface MediaCms extends TestCms {
  dataDir: string;
  store: StoreKind;
  /** Keys of every stored object (file system: files under the media root; S3: objects in the bucket). */
  storedKeys(): Promise<string[]>;
}

let prefixSeq = 0;
const dataDirs: string[] = [];

// Each test's data folder (media and staged uploads; the test database lives elsewhere) goes with the test.
afterEach(() => {
  while (dataDirs.length) rmSync(dataDirs.pop() as string, { recursive: true, force: true });
});

/** A service with its own data directory (and, for S3, its own key prefix in the shared bucket). */
export async function mediaCms(
  dialect: DialectName,
  store: StoreKind = 'file',
  options: { config?: ConfigInput; clock?: Clock; s3?: () => S3Fixture; publicBase?: boolean } = {},
): Promise<MediaCms> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-media-'));
  dataDirs.push(dataDir);
  const prefix = `t${process.pid}-${++prefixSeq}`;
  let storage: ConfigInput['storage'];
  if (store === 's3') {
    if (!options.s3) throw new Error('S3 suites need startS3()');
    const f = options.s3();
    storage = {
      url: `s3://${f.bucket}/${prefix}`,
      endpoint: f.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      ...(options.publicBase ? { publicUrl: `${f.endpoint}/${f.bucket}` } : {}),
    };
  }
  const cms = (await testCms(dialect, {
    clock: options.clock,
    config: { dataDir, ...(storage ? { storage } : {}), ...options.config },
  })) as MediaCms;
  cms.dataDir = dataDir;
  cms.store = store;
  cms.storedKeys = async () => {
    if (store === 'file') return listFiles(join(dataDir, 'media'));
    const f = options.s3!();
    const root = join(f.dir, f.bucket, prefix);
    // s3rver keeps each object as a folder of files named after the key.
    return listFiles(root)
      .filter((p) => p.endsWith('._S3rver_object'))
      .map((p) => p.replace(/\._S3rver_object$/, ''));
  };
  return cms;
}

function listFiles(root: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  for (const name of names) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) out = out.concat(listFiles(path));
    else out.push(name);
  }
  return out;
}

/** Files left in the staging folder (must be none after any request). */
export function stagedLeftovers(cms: MediaCms): string[] {
  return listFiles(join(cms.dataDir, 'tmp', 'uploads'));
}

/** A solid-colour PNG of the given size. */
export function png(width = 40, height = 30, color = { r: 200, g: 30, b: 60 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export function jpeg(width = 40, height = 30, options: { orientation?: number } = {}): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg();
  return (options.orientation ? img.withMetadata({ orientation: options.orientation }) : img).toBuffer();
}

export interface UploadOptions {
  name?: string;
  type?: string;
  fields?: Record<string, string>;
  thumbnail?: { bytes: Buffer; type?: string };
  token?: string | null;
  path?: string;
  method?: string;
  headers?: Record<string, string>;
}

/** A service to upload to: a test service uploads as its first Admin unless `token` says otherwise. */
type UploadCms = Cms & { adminToken?: string };

/** `POST /media` (or another multipart route) as a browser sends it. */
export async function upload(cms: UploadCms, bytes: Buffer | string, options: UploadOptions = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(options.fields ?? {})) form.append(k, v);
  form.append(
    'file',
    new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type: options.type ?? 'image/png' }),
    options.name ?? 'picture.png',
  );
  if (options.thumbnail) {
    form.append(
      'thumbnail',
      new Blob([new Uint8Array(options.thumbnail.bytes)], { type: options.thumbnail.type ?? 'image/png' }),
      'thumb.png',
    );
  }
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? cms.adminToken : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await cms.app.request(`/_cms/api${options.path ?? '/media'}`, {
    method: options.method ?? 'POST',
    headers,
    body: form,
  });
  const body = (await res.json()) as any;
  return { status: res.status, body, headers: res.headers };
}

/** Upload and expect a new item (201). */
export async function uploaded(cms: UploadCms, bytes: Buffer | string, options: UploadOptions = {}) {
  const res = await upload(cms, bytes, options);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.item as any;
}

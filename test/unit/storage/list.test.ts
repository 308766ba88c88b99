/**
 * Storage.list on both stores: every object under its key (the S3 key prefix removed, the file
 * store's spread folders mapped back), with its size and write time; a derived prefix narrows
 * it; the file store lists a stray file under its relative path; S3 pages are followed through
 * continuation tokens and a sibling key prefix stays out.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/core/ids.js';
import { FileStorage } from '../../../src/storage/file.js';
import { S3Storage } from '../../../src/storage/s3.js';
import type { Storage } from '../../../src/storage/types.js';
import { startPagingS3 } from '../../helpers/s3rver-process.js';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop() as string, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-list-'));
  dirs.push(dir);
  return dir;
};

async function put(storage: Storage, key: string, bytes: string): Promise<void> {
  const path = join(tempDir(), 'bytes');
  writeFileSync(path, bytes);
  await storage.putFile(key, path, { contentType: 'application/octet-stream' });
}

async function listed(storage: Storage, prefix?: string) {
  const out: Array<{ key: string; size: number; modifiedAt: Date }> = [];
  for await (const o of storage.list(prefix)) out.push(o);
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

/** Three originals, two derivatives of one item and one of another. */
async function fill(storage: Storage) {
  const item = newId();
  const other = newId();
  const objects: Record<string, string> = {
    [`${newId()}.png`]: 'one',
    [`${newId()}.jpg`]: 'second',
    [`${newId()}.ndjson`]: '{"x":1}\n',
    [`derived/${item}/0123456789abcdef/0123456789abcdef0123.webp`]: 'small',
    [`derived/${item}/0123456789abcdef/f0a0b0c0d/abcdefabcdefabcdefab.avif`]: 'cropped',
    [`derived/${other}/fedcba9876543210/00000000000000000000.jpg`]: 'theirs',
  };
  for (const [key, bytes] of Object.entries(objects)) await put(storage, key, bytes);
  const expected = Object.entries(objects)
    .map(([key, bytes]) => ({ key, size: Buffer.byteLength(bytes) }))
    .sort((a, b) => a.key.localeCompare(b.key));
  return { item, expected };
}

describe('FileStorage.list', () => {
  it('lists every object under its key with size and modification time, narrowed by a derived prefix', async () => {
    const root = join(tempDir(), 'media');
    const storage = new FileStorage(root);
    expect(await listed(storage)).toEqual([]);

    const before = Date.now() - 1000;
    const { item, expected } = await fill(storage);
    const all = await listed(storage);
    expect(all.map(({ key, size }) => ({ key, size }))).toEqual(expected);
    for (const o of all) {
      expect(o.modifiedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(await storage.head(o.key)).toEqual({ size: o.size });
    }
    expect((await listed(storage, `derived/${item}/`)).map((o) => o.key)).toEqual(
      expected.filter((o) => o.key.startsWith(`derived/${item}/`)).map((o) => o.key),
    );
    expect((await listed(storage, 'derived/')).length).toBe(3);

    // The modification time is the file's: set back two hours, it reads two hours old.
    const first = all[0]!;
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(storage.localPath(first.key), old, old);
    const again = (await listed(storage)).find((o) => o.key === first.key)!;
    expect(Math.abs(again.modifiedAt.getTime() - old.getTime())).toBeLessThan(1000);

    // Files the store did not write are listed under their relative path, not passed off as keys.
    writeFileSync(join(root, 'notes.txt'), 'hello');
    mkdirSync(join(root, 'zz'), { recursive: true });
    writeFileSync(join(root, 'zz', `${newId().slice(0, 24)}AB.png`), 'misplaced');
    const strays = (await listed(storage)).filter((o) => !expected.some((e) => e.key === o.key));
    expect(strays).toHaveLength(2);
    expect(strays.find((o) => o.key === 'notes.txt')?.size).toBe(5);
    expect(strays.find((o) => o.key !== 'notes.txt')?.key).toMatch(/^zz\/[0-9A-Z]{24}AB\.png$/);
  });
});

describe('S3Storage.list', () => {
  let s3: Awaited<ReturnType<typeof startPagingS3>>;
  beforeAll(async () => {
    s3 = await startPagingS3();
  });
  afterAll(async () => {
    await s3?.stop();
  });
  const config = (prefix: string) => {
    const f = s3;
    return {
      kind: 's3' as const,
      bucket: f.bucket,
      prefix,
      endpoint: f.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      publicUrl: null,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      timeoutMs: 15_000,
    };
  };

  it('follows continuation tokens, strips the key prefix and leaves a sibling prefix out', async () => {
    const prefix = `list${process.pid}`;
    // Two keys a page: six objects take three pages.
    const storage = new S3Storage(config(prefix), 2);
    expect(await listed(storage)).toEqual([]);
    const sibling = new S3Storage(config(`${prefix}0`));
    await put(sibling, `${newId()}.png`, 'not ours');

    const before = Date.now() - 5000;
    const { item, expected } = await fill(storage);
    const all = await listed(storage);
    expect(all.map(({ key, size }) => ({ key, size }))).toEqual(expected);
    for (const o of all) {
      expect(o.modifiedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(await storage.head(o.key)).toEqual({ size: o.size });
    }
    expect((await listed(storage, `derived/${item}/`)).map((o) => o.key)).toEqual(
      expected.filter((o) => o.key.startsWith(`derived/${item}/`)).map((o) => o.key),
    );
    expect(await listed(sibling)).toHaveLength(1);
  });
});

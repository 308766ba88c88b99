import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  assertKey,
  assertPrefix,
  type ByteRange,
  DERIVED_KEY,
  type ObjectHeaders,
  type ObjectInfo,
  type ReadResult,
  type Storage,
  type UploadTarget,
} from './types.js';

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Media bytes on the local file system, below `root`. Objects are spread over
 * 1,024 folders by the last two (random) characters of their ULID, so no
 * folder grows without bound. The service streams them itself.
 */
export class FileStorage implements Storage {
  readonly kind = 'file' as const;

  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    assertKey(key);
    if (DERIVED_KEY.test(key)) return this.derivedPath(key);
    const id = key.slice(0, 26);
    return join(this.root, id.slice(24, 26), key);
  }

  async putFile(key: string, path: string, _headers: ObjectHeaders): Promise<ObjectInfo> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(path, target);
    } catch (err) {
      // Another file system (a temp folder on another mount): copy, then drop the source.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await copyFile(path, target);
      await unlink(path);
    }
    return { size: (await stat(target)).size };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: ByteRange): Promise<ReadResult | null> {
    const info = await this.head(key);
    if (!info) return null;
    const body = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    return { body, size: info.size };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /**
   * Derived objects (`derived/<id>/…`) go under `derived/<last two characters of the id>/<id>/…`:
   * one folder per item, spread like the originals, so an item's derivatives leave with one folder.
   */
  private derivedPath(keyOrPrefix: string): string {
    const id = keyOrPrefix.slice('derived/'.length, 'derived/'.length + 26);
    return join(this.root, 'derived', id.slice(24, 26), keyOrPrefix.slice('derived/'.length));
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.derivedPath(assertPrefix(prefix)), { recursive: true, force: true });
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async uploadTarget(_key: string, headers: ObjectHeaders): Promise<UploadTarget> {
    return { url: null, method: 'PUT', headers: { 'Content-Type': headers.contentType } };
  }

  async readUrl(): Promise<string | null> {
    return null;
  }

  publicUrl(): string | null {
    return null;
  }
}

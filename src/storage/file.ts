import { createReadStream } from 'node:fs';
import { copyFile, mkdir, opendir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  assertKey,
  assertPrefix,
  type ByteRange,
  DERIVED_KEY,
  DERIVED_PREFIX,
  type ListedObject,
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

  /**
   * Walk the folders below the root, one directory handle open per level. A file's key is the
   * one `pathOf` puts there (`<2 chars>/<key>` for an original, `derived/<2 chars>/<id>/…` for a
   * derivative); a file anywhere else is listed under its relative path. A derived prefix walks
   * only the derived folders (an item's or a version's prefix only its own folder).
   */
  async *list(prefix = ''): AsyncIterable<ListedObject> {
    const start = DERIVED_PREFIX.test(prefix)
      ? this.derivedPath(prefix)
      : prefix.startsWith('derived/')
        ? join(this.root, 'derived')
        : this.root;
    for await (const path of walk(start)) {
      const key = this.keyOf(path);
      if (!key.startsWith(prefix)) continue;
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(path);
      } catch (err) {
        // Deleted since the folder was read.
        if (isMissing(err)) continue;
        throw err;
      }
      yield { key, size: info.size, modifiedAt: info.mtime };
    }
  }

  /** The key `pathOf` maps to this file, or the relative path when no key does (a stray file). */
  private keyOf(path: string): string {
    const parts = relative(this.root, path).split(sep);
    const [top, , ...rest] = parts;
    const candidate = top === 'derived' ? `derived/${rest.join('/')}` : (parts[parts.length - 1] as string);
    try {
      if (this.pathOf(candidate) === path) return candidate;
    } catch {
      // Not a key's name.
    }
    return parts.join('/');
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

/** Every file below `dir` (none when it does not exist), depth first. */
async function* walk(dir: string): AsyncGenerator<string> {
  let handle: Awaited<ReturnType<typeof opendir>>;
  try {
    handle = await opendir(dir);
  } catch (err) {
    // An empty store has no folder yet; a folder removed since its parent was read holds nothing.
    if (isMissing(err)) return;
    throw err;
  }
  for await (const entry of handle) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

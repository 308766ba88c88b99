import { Readable } from 'node:stream';
import { pack as tarPack } from 'tar-stream';
import { CmsError } from '../../core/errors.js';
import type { Storage } from '../../storage/types.js';
import type { FileRow, FileStore } from './files.js';

/**
 * A whole package as one tar archive (POSIX ustar): `manifest.json` first,
 * then every file in package order, streamed from storage one at a time, so
 * memory stays flat whatever the package's size. Every name fits ustar's
 * 100-byte field, so the archive's size is known before the first byte.
 */
const BLOCK = 512;
const PAGE = 500;

const padded = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

/** Bytes of the archive of a manifest and files of these sizes (header + padded body each, two end blocks). */
export function archiveSize(manifestBytes: number, fileSizes: Iterable<number>): number {
  let total = BLOCK + padded(manifestBytes) + 2 * BLOCK;
  for (const size of fileSizes) total += BLOCK + padded(size);
  return total;
}

/** The bytes of one package file, or a clear error when storage lost them since the export. */
export async function openPackageFile(storage: Storage, file: FileRow): Promise<Readable> {
  const read = file.storage_key ? await storage.read(file.storage_key) : null;
  if (!read || read.size !== Number(file.size)) {
    throw new CmsError('NOT_FOUND', `The package file "${file.path}" is no longer in storage`, {
      path: file.path,
    });
  }
  return read.body;
}

export function archiveStream(
  storage: Storage,
  files: FileStore,
  operationId: string,
  manifest: string,
  mtime: Date,
): Readable {
  const pack = tarPack();
  const run = async () => {
    const manifestBytes = Buffer.from(manifest, 'utf8');
    pack.entry({ name: 'manifest.json', size: manifestBytes.length, mtime, mode: 0o644 }, manifestBytes);
    let after = 0;
    for (;;) {
      const page = await files.page(operationId, after, PAGE);
      for (const file of page) {
        const body = await openPackageFile(storage, file);
        await new Promise<void>((resolve, reject) => {
          const entry = pack.entry({ name: file.path, size: Number(file.size), mtime, mode: 0o644 }, (err) =>
            err ? reject(err) : resolve(),
          );
          body.on('error', reject);
          body.pipe(entry);
        });
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1].position;
    }
    pack.finalize();
  };
  run().catch((err: unknown) => pack.destroy(err as Error));
  // tar-stream's streams are streamx streams: a Node stream around them is what the doors pipe.
  return Readable.from(pack);
}

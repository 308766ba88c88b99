import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { TransferFilesTable } from '../../db/tables-transfer.js';
import type { Storage } from '../../storage/types.js';

/**
 * Package files in storage: record files are written to a private temporary
 * file while their SHA-256 is computed, then stored under a key of their own
 * (`<ULID>.ndjson`, like any stored object); media bytes stay where the
 * library keeps them and the package only points at them.
 */
export type FileRow = TransferFilesTable;

const NDJSON_HEADERS = { contentType: 'application/x-ndjson; charset=utf-8' };

/** One record file being written: rows go in as lines; `finish` stores it. */
export class RecordFileWriter {
  readonly path: string;
  rows = 0;
  bytes = 0;
  private readonly hash = createHash('sha256');
  private readonly out: WriteStream;

  private constructor(
    private readonly dir: string,
    readonly packagePath: string,
  ) {
    this.path = join(dir, 'part.ndjson');
    this.out = createWriteStream(this.path, { mode: 0o600 });
    // Failures surface through write/finish; a stream destroyed by discard() must not throw on its own.
    this.out.on('error', () => {});
  }

  static async open(packagePath: string): Promise<RecordFileWriter> {
    const dir = await mkdtemp(join(tmpdir(), 'cms-transfer-'));
    return new RecordFileWriter(dir, packagePath);
  }

  async write(row: Record<string, unknown>): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(row)}\n`, 'utf8');
    this.hash.update(line);
    this.rows += 1;
    this.bytes += line.length;
    if (!this.out.write(line)) await once(this.out, 'drain');
  }

  /** Close and store the file; the temporary copy is gone afterwards. */
  async finish(storage: Storage): Promise<{ key: string; size: number; sha256: string; rows: number }> {
    this.out.end();
    await once(this.out, 'finish');
    const key = `${newId()}.ndjson`;
    try {
      const info = await storage.putFile(key, this.path, NDJSON_HEADERS);
      return { key, size: info.size, sha256: this.hash.digest('hex'), rows: this.rows };
    } finally {
      await this.discard();
    }
  }

  async discard(): Promise<void> {
    if (!this.out.closed) {
      // The file may still be opening: wait until the stream is closed before its folder goes.
      const closed = once(this.out, 'close').catch(() => undefined);
      this.out.destroy();
      await closed;
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** SHA-256 (hex) of a stored object, read as a stream. */
export async function hashStored(storage: Storage, key: string): Promise<string | null> {
  const read = await storage.read(key);
  if (!read) return null;
  const hash = createHash('sha256');
  for await (const chunk of read.body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** SHA-256 (hex) of a local file. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function fileStore(db: Kdb) {
  return {
    async insert(trx: Kdb, rows: FileRow[]): Promise<void> {
      // SQLite binds at most 32,766 values per statement: 13 columns × 500 rows stays far below.
      for (let i = 0; i < rows.length; i += 500) {
        await trx
          .insertInto('_cms_transfer_files')
          .values(rows.slice(i, i + 500))
          .execute();
      }
    },

    async get(operationId: string, path: string): Promise<FileRow | undefined> {
      return db
        .selectFrom('_cms_transfer_files')
        .selectAll()
        .where('operation_id', '=', operationId)
        .where('path', '=', path)
        .executeTakeFirst();
    },

    /** The files of an operation in package order, a page at a time (`through`: inside a transaction). */
    async page(operationId: string, afterPosition: number, limit: number, through: Kdb = db): Promise<FileRow[]> {
      return through
        .selectFrom('_cms_transfer_files')
        .selectAll()
        .where('operation_id', '=', operationId)
        .where('position', '>', afterPosition)
        .orderBy('position')
        .limit(limit)
        .execute();
    },
  };
}

export type FileStore = ReturnType<typeof fileStore>;

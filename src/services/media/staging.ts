import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CmsError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';

/** Bytes kept from the start of a file for sniffing its type. */
export const HEAD_BYTES = 64 * 1024;

/**
 * A received file on local disk with the facts learnt while it streamed in:
 * size, SHA-256 and its first bytes. Memory stays flat whatever the size:
 * only the head sample is held.
 */
export interface StagedFile {
  path: string;
  size: number;
  /** `sha256:<hex>` */
  hash: string;
  head: Buffer;
  /** True when `head` holds the whole file. */
  complete: boolean;
  /** True for a temporary copy the service may move or delete; false for a stored object read in place. */
  owned: boolean;
  /** `sha1:<hex>`, when asked for (an import's lookup key, spec 2 "Blog-platform import behavior"). */
  sha1?: string;
}

export const tooLarge = (limit: number) =>
  new CmsError('PAYLOAD_TOO_LARGE', `The file is larger than the maximum upload size (${limit} bytes)`, {
    maxUploadSize: limit,
  });

/** Counts, hashes and samples the bytes going through; fails as soon as they pass `limit`. */
class Meter extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly sha1: ReturnType<typeof createHash> | null;
  private readonly headParts: Buffer[] = [];
  private headSize = 0;

  constructor(
    private readonly limit: number,
    withSha1 = false,
  ) {
    super();
    this.sha1 = withSha1 ? createHash('sha1') : null;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      done(tooLarge(this.limit));
      return;
    }
    this.hash.update(chunk);
    this.sha1?.update(chunk);
    if (this.headSize < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headSize);
      this.headParts.push(Buffer.from(part));
      this.headSize += part.length;
    }
    done(null, chunk);
  }

  facts() {
    return {
      size: this.size,
      hash: `sha256:${this.hash.digest('hex')}`,
      head: Buffer.concat(this.headParts),
      ...(this.sha1 ? { sha1: `sha1:${this.sha1.digest('hex')}` } : {}),
    };
  }
}

/** The client went away (connection reset, body cut short): not a failure of the service. */
function interrupted(err: unknown): boolean {
  if (err instanceof CmsError) return false;
  const e = err as NodeJS.ErrnoException;
  return (
    e?.code === 'ECONNRESET' ||
    e?.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    e?.message === 'aborted' ||
    e?.message === 'upload interrupted'
  );
}

/**
 * Stream `source` into a new file under `dir`, at most `limit` bytes (the
 * source is destroyed, not read to its end, once it passes the limit; the
 * error is `PAYLOAD_TOO_LARGE`); nothing is left behind on failure. `sha1`:
 * also compute the SHA-1 (the import key). Extra stages (`through`) sit
 * between the source and the meter, e.g. a type check on the first bytes.
 */
export async function stageStream(
  source: Readable,
  dir: string,
  limit: number,
  options: { sha1?: boolean; through?: Transform[] } = {},
): Promise<StagedFile> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${newId()}.upload`);
  const meter = new Meter(limit, options.sha1);
  const out = createWriteStream(path);
  try {
    await pipeline([source, ...(options.through ?? []), meter, out]);
  } catch (err) {
    // The file is opened asynchronously: a pipeline that fails first (an early limit) would see `rm`
    // find nothing and the open create the file afterwards. Remove it once the stream has closed.
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    await rm(path, { force: true });
    throw interrupted(err) ? new CmsError('NO_FILE', 'The upload was interrupted before the file was complete') : err;
  }
  return { path, ...meter.facts(), complete: meter.size <= HEAD_BYTES, owned: true };
}

/** The same facts for a file that is already on this machine (a stored object), read in place. */
export async function measureFile(path: string, limit: number): Promise<StagedFile> {
  const meter = new Meter(limit);
  await pipeline(
    createReadStream(path),
    meter,
    new Writable({
      write(_chunk, _enc, done) {
        done();
      },
    }),
  );
  return { path, ...meter.facts(), complete: meter.size <= HEAD_BYTES, owned: false };
}

/** Drop a staged copy (never a file read in place). */
export async function discard(file: StagedFile | null | undefined): Promise<void> {
  if (file?.owned) await rm(file.path, { force: true });
}

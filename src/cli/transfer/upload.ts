import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ApiError, CliError, UsageError } from '../errors.js';
import { byteSize } from '../format.js';
import type { Io } from '../io.js';
import type { Target, TransferImport } from '../target/types.js';
import type { Progress } from './progress.js';

/**
 * Getting a package archive into an import: the tar archive (or a gzipped
 * one) is read as a stream, manifest.json first (it says which files exist), then each entry
 * is streamed straight into its upload as it is read; memory holds the
 * manifest and one chunk, never a whole file. An import that already has
 * some files (resumed with --id) gets only those still missing, and the
 * archive must be the package of that import.
 */
export interface UploadSummary {
  /** Package files uploaded now (manifest.json not counted). */
  files: number;
  bytes: number;
  /** Files the import already had. */
  skipped: number;
}

/** Larger than any manifest a site writes or an import accepts (32 MiB). */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
const MANIFEST = 'manifest.json';

/** The archive's absolute path, checked before anything is created on the site. */
export function archiveFile(io: Io, file: string): string {
  const path = resolve(io.cwd, file);
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw new UsageError(`No such file: ${file}`);
  }
  if (!isFile) throw new UsageError(`${file} is not a file: give the package's tar archive (cms transfer export)`);
  return path;
}

/** Whether the file starts as gzip does (`cms transfer export --out - | gzip > site.tar.gz`). */
function gzipped(path: string): boolean {
  const head = Buffer.alloc(2);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** Every path an import still misses (every page). */
async function missingPaths(target: Target, id: string): Promise<Set<string>> {
  const paths = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await target.transfer.imports.missing(id, { cursor, limit: 100 });
    for (const f of page.items) paths.add(f.path);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return paths;
}

/** The files a manifest lists, with their sizes (the site has checked it; this only reads it). */
function listed(text: string): Map<string, number> {
  try {
    const files = (JSON.parse(text) as { files: Array<{ path: string; size: number }> }).files;
    return new Map(files.map((f) => [f.path, f.size]));
  } catch {
    throw new CliError('manifest.json of the archive lists no files');
  }
}

async function readManifest(entry: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += chunk.length;
    if (size > MAX_MANIFEST_BYTES) throw new CliError('manifest.json of the archive is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function drain(entry: AsyncIterable<Buffer>): Promise<void> {
  for await (const _ of entry) {
    // skipped: the import has this file already
  }
}

/** The entry's bytes, counted as the upload takes them. */
async function* counted(entry: AsyncIterable<Buffer>, add: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of entry) {
    add(chunk.length);
    yield chunk;
  }
}

const unreadable = (path: string, err: Error) => new CliError(`Cannot read ${path}: ${err.message}`);

type Entry = AsyncIterable<Buffer> & { header: { name: string; type: string | null; size?: number } };

/**
 * Upload what the import misses from the archive at `path`: `resumed`, or a
 * new import, created once the archive's first entry is its manifest (so a
 * wrong file leaves nothing behind on the site). The import as the site last
 * answered.
 */
export async function uploadArchive(
  target: Target,
  path: string,
  resumed: TransferImport | null,
  progress: Progress,
): Promise<{ op: TransferImport; summary: UploadSummary }> {
  const imports = target.transfer.imports;
  const digestOf = resumed?.packageDigest ?? null;
  // The import misses these: known from the site when it has a manifest, else everything listed.
  const known = resumed && digestOf !== null ? await missingPaths(target, resumed.id) : null;

  const { extract: tarExtract } = await import('tar-stream');
  const extract = tarExtract();
  // Entries are taken by the iterator below: nothing may await between here and the loop, or one is lost.
  const entries = (extract as unknown as AsyncIterable<Entry>)[Symbol.asyncIterator]();
  const file = createReadStream(path);
  // A gzipped archive is read through gunzip, still as a stream.
  const source = gzipped(path) ? file.pipe(createGunzip()) : file;
  let broken: Error | null = null;
  const fail = (err: Error) => {
    broken ??= err;
    extract.destroy(err);
  };
  file.on('error', fail);
  if (source !== file) source.on('error', fail);
  extract.on('error', (err: Error) => {
    broken ??= err;
  });
  source.pipe(extract as unknown as NodeJS.WritableStream);
  let pkg: { op: TransferImport; files: Map<string, number>; missing: Set<string> } | null = null;
  const summary: UploadSummary = { files: 0, bytes: 0, skipped: 0 };
  let toSend = { files: 0, bytes: 0 };
  let sent = 0;
  const show = (n: number) => {
    sent += n;
    progress.tick(`Uploading: ${summary.files}/${toSend.files} files, ${byteSize(sent)} of ${byteSize(toSend.bytes)}`);
  };
  try {
    for await (const entry of { [Symbol.asyncIterator]: () => entries }) {
      const { name, type, size = 0 } = entry.header;
      if (pkg === null) {
        if (type !== 'file' || name !== MANIFEST) {
          throw new CliError(
            `${path} is not a site package archive: its first entry is ${name}, not manifest.json (make one with cms transfer export)`,
          );
        }
        const text = await readManifest(entry);
        const digest = `sha256:${createHash('sha256').update(text).digest('hex')}`;
        if (resumed && digestOf !== null && digest !== digestOf) {
          throw new CliError(
            `${path} is not the package of import ${resumed.id}: its manifest's digest is ${digest}, the import's ${digestOf}`,
          );
        }
        let op = resumed ?? (await imports.create());
        progress.step(`${resumed ? 'Resuming' : 'Created'} import ${op.id}`);
        if (digestOf === null) {
          op = await imports.upload(op.id, MANIFEST, Readable.from([text]), text.length);
        }
        const files = listed(text.toString('utf8'));
        const missing = known ?? new Set(files.keys());
        pkg = { op, files, missing };
        summary.skipped = files.size - missing.size;
        toSend = { files: missing.size, bytes: [...missing].reduce((n, p) => n + (files.get(p) ?? 0), 0) };
        progress.step(
          `${files.size} package files listed in manifest.json; ${toSend.files} to upload (${byteSize(toSend.bytes)})`,
        );
        if (missing.size === 0) break;
        continue;
      }
      if (type !== 'file') throw new CliError(`${name} in the archive is not a file (${type})`);
      if (!pkg.files.has(name)) throw new CliError(`${name} is in the archive but manifest.json does not list it`);
      if (!pkg.missing.has(name)) {
        await drain(entry);
        continue;
      }
      pkg.op = await imports.upload(pkg.op.id, name, Readable.from(counted(entry, show)), size);
      pkg.missing.delete(name);
      summary.files += 1;
      summary.bytes += size;
      if (pkg.missing.size === 0) break;
    }
  } catch (err) {
    // An upload that failed because the archive did: say so, rather than what the upload made of it.
    if (broken && !(err instanceof ApiError)) throw unreadable(path, broken);
    throw err;
  } finally {
    file.destroy();
    source.destroy();
    extract.destroy();
  }
  if (broken) throw unreadable(path, broken);
  if (pkg === null) throw new CliError(`${path} holds no manifest.json: is it a site package archive?`);
  const { op, missing } = pkg;
  if (missing.size) {
    const first = [...missing].slice(0, 3).join(', ');
    throw new CliError(
      `The archive lacks ${missing.size} file${missing.size === 1 ? '' : 's'} its manifest lists (${first}${missing.size > 3 ? ', …' : ''}); what it had is uploaded to import ${op.id}`,
    );
  }
  if (summary.files) progress.step(`Uploaded ${summary.files} files (${byteSize(summary.bytes)})`);
  return { op, summary };
}

import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliError, UsageError } from '../errors.js';
import { byteSize } from '../format.js';
import { type Io, isTerminal } from '../io.js';
import type { PackageDownload, Target, TransferExport } from '../target/types.js';
import type { Progress } from './progress.js';
import { checkPackage, type VerifiedPackage } from './verify.js';

/**
 * Saving a package archive: streamed to a temporary file beside the
 * destination, read back and checked against its manifest, and only then
 * renamed to its name, so a broken download or a mismatch never leaves a
 * file under the final name. `--out -` streams it to stdout and checks it on
 * the way. Memory stays flat whatever the archive's size.
 */
export type Destination = { stdout: true } | { stdout: false; path: string };

export interface SavedArchive {
  /** Absolute path of the archive, or "-" for stdout. */
  archive: string;
  /** Bytes of the archive. */
  bytes: number;
  verified: VerifiedPackage;
}

/** The name a site gives an export's archive. */
export const archiveName = (exportId: string) => `site-${exportId}.tar`;

/**
 * Where the archive of `exportId` goes, checked before any work starts:
 * `-` is stdout (never a terminal, never with --json, which uses it too);
 * a folder gets the site's name for it; a file needs an existing folder.
 */
export function destination(io: Io, out: string | undefined, json: boolean): (exportId: string) => Destination {
  if (out === '-') {
    if (json) throw new UsageError('--json and --out - both write to stdout: give --out a file, or leave out --json');
    if (isTerminal(io.stdout)) {
      throw new UsageError(
        'Not writing a tar archive to a terminal: redirect stdout (--out - > site.tar) or give --out FILE',
      );
    }
    return () => ({ stdout: true });
  }
  const given = resolve(io.cwd, out ?? '.');
  const isFolder = out === undefined || out.endsWith('/') || (existsSync(given) && statSync(given).isDirectory());
  const folder = isFolder ? given : dirname(given);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`No folder ${folder} for --out`);
  return (exportId) => {
    if (!/^[0-9A-Za-z]{1,64}$/.test(exportId)) throw new CliError(`Unexpected export ID ${JSON.stringify(exportId)}`);
    return { stdout: false, path: isFolder ? join(folder, archiveName(exportId)) : given };
  };
}

/** A failure while bytes flow: what the target said stays as it is; anything else names the stage. */
function broken(err: unknown, stage: string): Error {
  if (err instanceof CliError) return err;
  const e = err as NodeJS.ErrnoException;
  const text = (e as Error & { cause?: Error }).cause?.message ?? e?.message ?? String(err);
  return new CliError(`${stage}: ${text}`);
}

function checkLength(bytes: number, size: number | null): void {
  if (size !== null && bytes !== size) throw new CliError(`The download ended after ${bytes} of ${size} bytes`);
}

async function writeStdout(io: Io, chunk: Uint8Array): Promise<void> {
  const stdout = io.stdout as { write(data: Uint8Array): unknown } & Partial<EventEmitter>;
  if (stdout.write(chunk) === false && typeof stdout.once === 'function') await once(stdout as EventEmitter, 'drain');
}

/** Stream to stdout, checking the archive as it passes. */
async function toStdout(io: Io, download: PackageDownload, digest: string, show: (n: number) => void) {
  const check = await checkPackage(digest);
  let bytes = 0;
  try {
    for await (const chunk of download.body as AsyncIterable<Buffer>) {
      await writeStdout(io, chunk);
      bytes += chunk.length;
      show(bytes);
      await check.write(chunk);
    }
  } catch (err) {
    check.abort();
    download.body.destroy();
    throw broken(err, `The download broke off after ${bytes} bytes`);
  }
  checkLength(bytes, download.size);
  return { archive: '-', bytes, verified: await check.end() };
}

/** Read a saved archive back and check it against its manifest. */
export async function verifyArchiveFile(path: string, digest: string): Promise<VerifiedPackage> {
  const check = await checkPackage(digest);
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) await check.write(chunk);
  } catch (err) {
    check.abort();
    throw broken(err, `Cannot read ${path} back`);
  }
  return check.end();
}

async function toFile(
  download: PackageDownload,
  path: string,
  digest: string,
  progress: Progress,
  show: (n: number) => void,
) {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.part`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      show(bytes);
      done(null, chunk);
    },
  });
  // Interrupted (Ctrl-C, a stop): remove the temporary file, then end as the signal would have.
  const onSignal = (signal: NodeJS.Signals) => {
    rmSync(temporary, { force: true });
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // The package holds users' addresses and comments: readable by its owner only.
    const file = createWriteStream(temporary, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(download.body, counter, file);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw broken(err, e.syscall ? `Cannot write ${temporary}` : `The download broke off after ${bytes} bytes`);
    }
    checkLength(bytes, download.size);
    progress.step(`Downloaded ${byteSize(bytes)}; checking it against the manifest …`);
    const verified = await verifyArchiveFile(temporary, digest);
    await rename(temporary, path);
    return { archive: path, bytes, verified };
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Download a complete export's archive to its destination and check it. */
export async function saveArchive(
  io: Io,
  target: Target,
  exp: TransferExport,
  dest: Destination,
  progress: Progress,
): Promise<SavedArchive> {
  const download = await target.transfer.exports.archive(exp.id);
  const digest = exp.packageDigest;
  if (!digest) {
    download.body.destroy();
    throw new CliError(`Export ${exp.id} has no package digest to check its archive against`);
  }
  const of = download.size === null ? '' : ` of ${byteSize(download.size)}`;
  const show = (n: number) => progress.tick(`Downloading: ${byteSize(n)}${of}`);
  progress.step(`Downloading the archive${download.size === null ? '' : ` (${byteSize(download.size)})`} …`);
  return dest.stdout ? toStdout(io, download, digest, show) : toFile(download, dest.path, digest, progress, show);
}

/**
 * Getting a package archive (the .tar a site export downloads) into an
 * import, from the file the administrator picked, without reading the file
 * into memory: the tar headers are read one block at a time (lib/ustar.ts),
 * manifest.json (first in the archive) is read as text, and every other entry
 * is uploaded as a Blob slice of the file, which the browser streams from
 * disk. Two uploads run side by side. An import that already has files gets
 * only those `missing` still lists, so picking the archive again resumes.
 */
import { ApiError } from '../../api/errors';
import { getImport, missingFiles, type TransferImport, uploadImportFile } from '../../api/transferImport';
import { entryBlob, type TarEntry, TarFormatError, tarEntries } from '../../lib/ustar';

const MANIFEST = 'manifest.json';
/** Uploads at once: enough to hide each request's round trip, few enough not to crowd the server. */
const PARALLEL = 2;
/** The manifest is read as text; a site refuses one larger than 32 MiB anyway. */
const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

/** A picked archive whose first entry is a site package manifest. */
export interface PackageArchive {
  file: File;
  manifest: TarEntry;
  /** The files the manifest lists, path → size, in package order. */
  files: Map<string, number>;
  /** The source site's address, as the manifest names it (shown before anything is uploaded). */
  source: string | null;
}

/** Files and bytes of the package: what is uploaded (before and now) of what the manifest lists. */
export interface UploadProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Files skipped because the import already had them. */
  skipped: number;
}

/** A failed step of getting the archive in, with what the person can do about it. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
  /** The service's error code, when the service refused an upload. */
  readonly code: string | null;
  /** The package file it is about. */
  readonly path: string | null;
  readonly advice: string | null;
  constructor(message: string, options: { code?: string; path?: string; advice?: string } = {}) {
    super(message);
    this.code = options.code ?? null;
    this.path = options.path ?? null;
    this.advice = options.advice ?? null;
  }
}

const NOT_A_PACKAGE = 'Choose the .tar archive a site export downloads (Site transfer → Export on the old site).';

/** Read the archive's first header and its manifest; nothing is sent yet, so a wrong file leaves nothing behind. */
export async function openArchive(file: File): Promise<PackageArchive> {
  const entries = tarEntries(file);
  let first: IteratorResult<TarEntry>;
  try {
    first = await entries.next();
  } catch (err) {
    if (err instanceof TarFormatError) throw new ArchiveError(err.message, { advice: NOT_A_PACKAGE });
    throw err;
  }
  await entries.return(undefined);
  if (first.done || first.value.name !== MANIFEST) {
    const what = first.done ? 'holds no files' : `begins with “${first.value.name}”, not manifest.json`;
    throw new ArchiveError(`“${file.name}” is not a site package: the archive ${what}.`, { advice: NOT_A_PACKAGE });
  }
  const manifest = first.value;
  if (manifest.size > MAX_MANIFEST_BYTES) {
    throw new ArchiveError('The archive’s manifest.json is larger than a site accepts (32 MiB).', {
      advice: NOT_A_PACKAGE,
    });
  }
  let parsed: { format?: unknown; files?: unknown; source?: { url?: unknown } };
  try {
    parsed = JSON.parse(await entryBlob(file, manifest).text());
  } catch {
    throw new ArchiveError('The archive’s manifest.json is not JSON.', { advice: NOT_A_PACKAGE });
  }
  const list = Array.isArray(parsed?.files) ? (parsed.files as Array<{ path?: unknown; size?: unknown }>) : null;
  if (parsed?.format !== 'cms-site-package' || !list) {
    throw new ArchiveError('The archive’s manifest.json is not a site package manifest.', { advice: NOT_A_PACKAGE });
  }
  const files = new Map<string, number>();
  for (const f of list) {
    if (typeof f.path === 'string' && typeof f.size === 'number') files.set(f.path, f.size);
  }
  const source = typeof parsed.source?.url === 'string' ? parsed.source.url : null;
  return { file, manifest, files, source };
}

/** The service refused an upload: its code and message, with advice for the codes a damaged archive gives. */
function refused(err: unknown, path: string): unknown {
  if (!(err instanceof ApiError)) return err;
  const issue = err.issues[0]?.code;
  if (err.code === 'VALIDATION_ERROR' && issue === 'sha256_mismatch') {
    return new ArchiveError(err.message, {
      code: `${err.code} (sha256_mismatch)`,
      path,
      advice: 'The archive is damaged: download it again from the old site and pick the new copy.',
    });
  }
  if (err.code === 'UPLOAD_SIZE_MISMATCH') {
    return new ArchiveError(err.message, {
      code: err.code,
      path,
      advice: 'The archive does not match its manifest: download it again from the old site and pick the new copy.',
    });
  }
  if (err.code === 'PAYLOAD_TOO_LARGE') {
    return new ArchiveError(err.message, {
      code: err.code,
      path,
      advice:
        'Raise this site’s upload limit (maxUploadSize, CMS_MAX_UPLOAD_SIZE), restart it, then pick the archive again: the files already uploaded are kept.',
    });
  }
  if (err.code === 'CONFLICT' && path === MANIFEST) {
    return new ArchiveError(err.message, {
      code: err.code,
      path,
      advice:
        'This archive is another package than the one this import was started with: pick that one, or start a new import.',
    });
  }
  if (err.code === 'NOT_FOUND') {
    return new ArchiveError(err.message, {
      code: err.code,
      path,
      advice: 'The archive holds a file its manifest does not list: download it again from the old site.',
    });
  }
  return new ArchiveError(err.message, { code: err.code, path });
}

/** Every path the import still misses, page by page (package order). */
async function allMissing(id: string): Promise<Set<string>> {
  const paths = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await missingFiles(id, cursor);
    for (const f of page.items) paths.add(f.path);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return paths;
}

/**
 * Upload what `op` misses from `archive`: manifest.json first (the same
 * manifest again is accepted as it is; another package's is a conflict),
 * then the missing files in archive order, `PARALLEL` at a time. Stops at
 * the first refusal (the other uploads in flight are stopped too) or when
 * `signal` aborts. The import as the service last answered.
 */
export async function uploadArchive(
  op: TransferImport,
  archive: PackageArchive,
  {
    signal,
    onProgress,
    onView,
  }: {
    signal: AbortSignal;
    onProgress: (p: UploadProgress) => void;
    /** Each answer of the service (the import with its counters), as uploads finish. */
    onView?: (op: TransferImport) => void;
  },
): Promise<TransferImport> {
  const { file, files } = archive;
  let latest: TransferImport;
  try {
    latest = await uploadImportFile(op.id, MANIFEST, entryBlob(file, archive.manifest), { signal });
  } catch (err) {
    throw refused(err, MANIFEST);
  }
  onView?.(latest);
  // Right after its manifest nothing else is in: every listed file is missing, no need to ask.
  const missing = latest.files.uploaded <= 1 ? new Set(files.keys()) : await allMissing(op.id);
  const bytesTotal = [...files.values()].reduce((n, s) => n + s, 0);
  const progress: UploadProgress = {
    filesDone: latest.files.listed - missing.size,
    filesTotal: latest.files.listed,
    bytesDone: bytesTotal - [...missing].reduce((n, p) => n + (files.get(p) ?? 0), 0),
    bytesTotal,
    skipped: latest.files.uploaded - 1,
  };
  const inFlight = new Map<string, number>();
  const report = () => {
    const sending = [...inFlight.values()].reduce((n, b) => n + b, 0);
    onProgress({ ...progress, bytesDone: progress.bytesDone + sending });
  };
  report();

  // One failure stops the others at once; the first error is the one reported.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let failure: unknown = null;
  const running = new Set<Promise<void>>();

  const send = async (entry: TarEntry) => {
    inFlight.set(entry.name, 0);
    try {
      latest = await uploadImportFile(op.id, entry.name, entryBlob(file, entry), {
        signal: stop.signal,
        onProgress: (sent) => {
          inFlight.set(entry.name, Math.min(sent, entry.size));
          report();
        },
      });
      onView?.(latest);
      missing.delete(entry.name);
      progress.filesDone += 1;
      progress.bytesDone += entry.size;
    } catch (err) {
      if (failure === null) failure = refused(err, entry.name);
      stop.abort();
    } finally {
      inFlight.delete(entry.name);
      report();
    }
  };

  // Files not yet handed to an upload: once none is left, the rest of the archive need not be read.
  let waiting = missing.size;
  const started = new Set<string>();
  try {
    let header = true;
    for await (const entry of tarEntries(file)) {
      if (header) {
        header = false; // manifest.json, sent above
        continue;
      }
      if (failure !== null || stop.signal.aborted) break;
      if (!files.has(entry.name)) {
        throw new ArchiveError(`“${entry.name}” is in the archive, but its manifest does not list it.`, {
          path: entry.name,
          advice: 'The archive was changed after it was exported: download it again from the old site.',
        });
      }
      if (entry.size !== files.get(entry.name)) {
        throw new ArchiveError(
          `“${entry.name}” is ${entry.size} bytes in the archive; its manifest says ${files.get(entry.name)}.`,
          {
            path: entry.name,
            advice: 'The archive does not match its manifest: download it again from the old site.',
          },
        );
      }
      if (!missing.has(entry.name) || started.has(entry.name)) continue;
      started.add(entry.name);
      waiting -= 1;
      const task = send(entry).finally(() => running.delete(task));
      running.add(task);
      if (running.size >= PARALLEL) await Promise.race(running);
      if (waiting === 0) break;
    }
  } catch (err) {
    failure ??= err instanceof TarFormatError ? new ArchiveError(err.message, { advice: NOT_A_PACKAGE }) : err;
    stop.abort();
  } finally {
    await Promise.allSettled([...running]);
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) throw new DOMException('The upload was stopped.', 'AbortError');
  if (failure !== null) throw failure;
  if (missing.size > 0) {
    const first = [...missing].slice(0, 3).join(', ');
    throw new ArchiveError(
      `The archive lacks ${missing.size === 1 ? 'a file' : `${missing.size} files`} its manifest lists (${first}${missing.size > 3 ? ', …' : ''}).`,
      {
        advice: 'What it had is uploaded. Download the archive again from the old site and pick it to upload the rest.',
      },
    );
  }
  // Answers of parallel uploads may arrive out of order: ask once more for the import as it is now.
  return getImport(op.id).catch(() => latest);
}

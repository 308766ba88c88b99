import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { CmsError, isCmsError, issuesError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { discard, type StagedFile, stageStream } from '../media/staging.js';
import type { TransferDeps } from './deps.js';
import type { FileRow } from './files.js';
import { ENTRIES_KIND, importRank, KIND_NAMES } from './kinds.js';
import {
  MANIFEST_PATH,
  MAX_MANIFEST_BYTES,
  type Manifest,
  ManifestSchema,
  MEDIA_FILE_KIND,
  PACKAGE_FORMAT,
  PACKAGE_FORMAT_VERSION,
  packageDigest,
} from './manifest.js';
import type { OperationRow, Progress } from './operations.js';

/**
 * Getting a package into an import: the manifest first (checked, then every
 * file it lists is expected), then each file, streamed to a temporary file
 * while its size and SHA-256 are measured and refused unless both match the
 * manifest. Accepted files are stored under keys of their own until the
 * import writes the site.
 */
export const UPLOAD_STATES: readonly string[] = ['uploading', 'analyzing', 'planned'];
/** Largest record file accepted (an export writes about 8 MiB at most). */
export const MAX_RECORD_FILE_BYTES = 64 * 1024 * 1024;

export interface MissingFile {
  path: string;
  kind: string;
  size: number | null;
  sha256: string | null;
}

function badManifest(message: string, path: (string | number)[] = [], code = 'invalid_manifest'): CmsError {
  return issuesError(`The manifest is not a site package manifest: ${message}`, [
    { path: ['manifest', ...path], code, message },
  ]);
}

/** Parse and check a manifest's text: the format, its version, the schema and the file list. */
export function readManifest(text: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badManifest('it is not JSON');
  }
  const head = json as { format?: unknown; formatVersion?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== PACKAGE_FORMAT) {
    throw badManifest(`"format" must be "${PACKAGE_FORMAT}"`, ['format']);
  }
  if (typeof head.formatVersion === 'number' && head.formatVersion > PACKAGE_FORMAT_VERSION) {
    throw badManifest(
      `format version ${head.formatVersion} is newer than this release reads (${PACKAGE_FORMAT_VERSION}); import it into a newer release`,
      ['formatVersion'],
      'unsupported_format_version',
    );
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) {
    throw issuesError(
      'The manifest does not match the site package format',
      parsed.error.issues.slice(0, 50).map((i) => ({
        path: ['manifest', ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
        code: i.code,
        message: i.message,
      })),
    );
  }
  const manifest = parsed.data;
  const seen = new Set<string>();
  for (const [i, f] of manifest.files.entries()) {
    if (seen.has(f.path)) throw badManifest(`"${f.path}" is listed twice`, ['files', i, 'path']);
    seen.add(f.path);
    const isMedia = f.path.startsWith('media/');
    if (isMedia !== (f.kind === MEDIA_FILE_KIND) || (!isMedia && !KIND_NAMES.has(f.kind))) {
      throw badManifest(`"${f.path}" has an unknown or mismatched kind "${f.kind}"`, ['files', i, 'kind']);
    }
    if ((f.kind === ENTRIES_KIND) !== (f.collection !== undefined)) {
      throw badManifest(`"${f.path}": only entry files name a collection`, ['files', i, 'collection']);
    }
    if (!isMedia && !f.path.startsWith(`records/${f.kind}/${f.collection ? `${f.collection}/` : ''}`)) {
      throw badManifest(`"${f.path}" is not where a ${f.kind} file belongs`, ['files', i, 'path']);
    }
  }
  return manifest;
}

export function uploadOps(deps: TransferDeps, stagingDir: string) {
  const { ctx, ops, storage } = deps;

  async function stage(body: Readable | null, limit: number, declared: number | null): Promise<StagedFile> {
    if (declared !== null && declared > limit) {
      throw new CmsError('PAYLOAD_TOO_LARGE', `The file is larger than ${limit} bytes`, { maxBytes: limit });
    }
    if (!body) throw new CmsError('NO_FILE', 'The upload body is missing');
    return stageStream(body, stagingDir, limit);
  }

  async function putManifest(row: OperationRow, body: Readable | null, declared: number | null): Promise<void> {
    const staged = await stage(body, MAX_MANIFEST_BYTES, declared);
    let text: string;
    try {
      text = await readFile(staged.path, 'utf8');
    } finally {
      await discard(staged);
    }
    const digest = packageDigest(text);
    if (row.manifest !== null) {
      if (row.package_digest === digest) return;
      throw new CmsError('CONFLICT', 'This import already has another manifest; create a new import for it', {
        packageDigest: row.package_digest,
      });
    }
    const manifest = readManifest(text);
    const now = ops.now();
    // Positions follow the kinds' dependency order (stable within a kind), whatever order the manifest lists.
    const ordered = manifest.files
      .map((f, i) => ({ f, i, rank: importRank(f.kind) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((o) => o.f);
    const files: FileRow[] = ordered.map((f, i) => ({
      operation_id: row.id,
      path: f.path,
      kind: f.kind,
      collection: f.collection ?? null,
      storage_key: null,
      owned: 1,
      size: f.size,
      sha256: f.sha256,
      records: f.records ?? null,
      position: i + 1,
      created_at: now,
      uploaded_at: null,
    }));
    const bytesTotal = manifest.files.reduce((n, f) => n + f.size, 0);
    const progress: Progress = { done: 1, total: files.length + 1, bytesDone: 0, bytesTotal };
    await ctx.db.transaction().execute(async (trx) => {
      await ops.update(trx, row, {
        manifest: text,
        package_digest: digest,
        stage: files.length ? 'files' : null,
        progress: JSON.stringify(progress),
      });
      await deps.files.insert(trx, files);
    });
  }

  async function putFile(row: OperationRow, path: string, body: Readable | null, declared: number | null) {
    const file = await deps.files.get(row.id, path);
    if (!file) throw new CmsError('NOT_FOUND', `"${path}" is not a file this import's manifest lists`, { path });
    const size = Number(file.size);
    const limit = file.kind === MEDIA_FILE_KIND ? ctx.config.maxUploadSize : MAX_RECORD_FILE_BYTES;
    if (size > limit) {
      throw new CmsError(
        'PAYLOAD_TOO_LARGE',
        `"${path}" is ${size} bytes, more than this site accepts (${limit}); raise maxUploadSize to import it`,
        { maxBytes: limit, size },
      );
    }
    // No bytes is decided by the manifest, before lengths are compared: the file itself when it
    // lists 0 bytes, a missing upload body otherwise (however the client sent nothing).
    if (!body && size > 0) throw missingBody(path, size);
    if (declared !== null && declared !== size) throw sizeMismatch(path, size, declared);
    let staged: StagedFile;
    try {
      staged = await stage(body ?? Readable.from([]), size, declared);
    } catch (err) {
      // The limit here is the manifest's size: more bytes than it lists is a size mismatch, not a too-large file.
      if (isCmsError(err) && err.code === 'PAYLOAD_TOO_LARGE') throw sizeMismatch(path, size, null);
      throw err;
    }
    try {
      if (staged.size === 0 && size > 0) throw missingBody(path, size);
      if (staged.size !== size) throw sizeMismatch(path, size, staged.size);
      if (staged.hash !== `sha256:${file.sha256}`) {
        throw issuesError(`The bytes of "${path}" do not match the manifest's SHA-256`, [
          { path: ['body'], code: 'sha256_mismatch', message: `expected ${file.sha256}` },
        ]);
      }
      // The same bytes again: nothing to do.
      if (file.storage_key !== null) return;
      const key = `${newId()}.${path.slice(path.lastIndexOf('.') + 1)}`;
      await storage.putFile(key, staged.path, { contentType: 'application/octet-stream' });
      const stored = await ctx.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('_cms_transfer_files')
          .set({ storage_key: key, uploaded_at: ops.now() })
          .where('operation_id', '=', row.id)
          .where('path', '=', path)
          .where('storage_key', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        // Counters move in SQL: uploads of one import may run side by side.
        await trx
          .updateTable('_cms_transfer_operations')
          .set({
            // A plan made while this file was missing is out of date.
            state: sql<string>`case when state = 'planned' then 'uploading' else state end`,
            plan: sql<null>`case when state = 'planned' then null else plan end`,
            plan_digest: sql<null>`case when state = 'planned' then null else plan_digest end`,
            version: sql<number>`version + 1`,
            updated_at: ops.now(),
          })
          .where('id', '=', row.id)
          .execute();
        return true;
      });
      // Another request stored the same file meanwhile.
      if (!stored) await storage.delete(key);
    } finally {
      await discard(staged);
    }
  }

  return {
    async put(row: OperationRow, path: string, body: Readable | null, declared: number | null) {
      if (!UPLOAD_STATES.includes(row.state)) {
        throw new CmsError('INVALID_STATE', `Files are uploaded before an import executes; this one is ${row.state}`, {
          state: row.state,
        });
      }
      if (path === MANIFEST_PATH) return putManifest(row, body, declared);
      if (row.manifest === null) {
        throw new CmsError('INVALID_STATE', 'Upload manifest.json first: it says which files the package holds');
      }
      return putFile(row, path, body, declared);
    },

    /** Files the manifest lists that are not uploaded yet, in package order (manifest.json until it is). */
    async missing(row: OperationRow, after: number, limit: number) {
      if (row.manifest === null) {
        return {
          items: [{ path: MANIFEST_PATH, kind: 'manifest', size: null, sha256: null }] as MissingFile[],
          total: 1,
          nextCursor: null,
        };
      }
      const [rows, count] = await Promise.all([
        ctx.db
          .selectFrom('_cms_transfer_files')
          .select(['path', 'kind', 'size', 'sha256', 'position'])
          .where('operation_id', '=', row.id)
          .where('storage_key', 'is', null)
          .where('position', '>', after)
          .orderBy('position')
          .limit(limit + 1)
          .execute(),
        missingCount(row.id),
      ]);
      const page = rows.slice(0, limit);
      return {
        items: page.map((r) => ({ path: r.path, kind: r.kind, size: Number(r.size), sha256: r.sha256 })),
        total: count,
        nextCursor: rows.length > limit ? String(page[page.length - 1].position) : null,
      };
    },

    missingCount,
  };

  async function missingCount(operationId: string): Promise<number> {
    const row = await ctx.db
      .selectFrom('_cms_transfer_files')
      .select(sql<number>`count(*)`.as('n'))
      .where('operation_id', '=', operationId)
      .where('storage_key', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

function missingBody(path: string, expected: number): CmsError {
  return new CmsError('NO_FILE', `The upload body is missing ("${path}" is ${expected} bytes in the manifest)`, {
    expected,
  });
}

/** `got` null: more bytes arrived than the manifest lists (the upload was cut off there). */
function sizeMismatch(path: string, expected: number, got: number | null): CmsError {
  const what = got === null ? 'more' : String(got);
  return new CmsError(
    'UPLOAD_SIZE_MISMATCH',
    `"${path}" must be ${expected} bytes (the manifest's size), not ${what}`,
    {
      expected,
      received: got,
    },
  );
}

export type UploadOps = ReturnType<typeof uploadOps>;

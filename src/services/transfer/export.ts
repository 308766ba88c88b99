import { z } from 'zod';
import { CmsError } from '../../core/errors.js';
import { RELEASE_VERSION } from '../../core/version.js';
import type { Kdb } from '../../db/connect.js';
import { migrations } from '../../db/migrations/index.js';
import { storedSetting } from '../settings/store.js';
import type { TransferDeps } from './deps.js';
import { type FileRow, hashStored, RecordFileWriter } from './files.js';
import {
  type Manifest,
  MEDIA_FILE_KIND,
  mediaPath,
  PACKAGE_FORMAT,
  PACKAGE_FORMAT_VERSION,
  packageDigest,
  recordPath,
} from './manifest.js';
import { type OperationRow, type Progress, summarize } from './operations.js';
import {
  countRows,
  exportParts,
  type KeyValue,
  keyOf,
  type Part,
  type PartRef,
  readRows,
  resolvePart,
} from './parts.js';

/**
 * Exports: an operation that writes the site's records and points at its
 * media, one bounded step per `advance`, then the manifest. Steps read each
 * table in key order from where the last one stopped; an export is not a
 * snapshot of one instant (a write between two steps is in the package when
 * its row had not been read yet), which an import tolerates.
 */
export interface ExportOptions {
  comments: boolean;
}

/** What the cursor of a running export holds. */
const CursorSchema = z.object({
  parts: z.array(z.object({ kind: z.string(), collection: z.string().optional() })),
  part: z.number().int().min(0),
  after: z.array(z.union([z.string(), z.number()])).nullable(),
  chunk: z.number().int().min(1),
  position: z.number().int().min(0),
  records: z.record(z.string(), z.number()),
  media: z.object({ count: z.number(), bytes: z.number() }),
  skippedMedia: z.array(z.string()),
});
type Cursor = z.infer<typeof CursorSchema>;

/** Rows one statement reads. */
const READ_BATCH = 200;
/** A record file closes past this many rows or bytes. */
const FILE_ROWS = 2_000;
const FILE_BYTES = 8 * 1024 * 1024;
/** How long one step works before it answers (it always finishes the file it is writing). */
export const STEP_MS = 1_000;
/** Media items left out for missing bytes that a manifest names (the count is always complete). */
const SKIPPED_LISTED = 1_000;

export const EXPORT_STATES = ['running', 'complete', 'failed'] as const;

export function exportOps(deps: TransferDeps) {
  const { ctx, ops, files, storage } = deps;

  /** What a new export starts from: its parts and the records the site holds now (read before any transaction). */
  async function prepare(options: ExportOptions): Promise<{ cursor: Cursor; progress: Progress }> {
    const snap = await deps.schema.snapshot();
    const parts = exportParts([...snap.collections.values()], options);
    let total = 0;
    for (const ref of parts) {
      const part = resolvePart(ref, snap.collections);
      if (part) total += await countRows(ctx.db, part);
    }
    const cursor: Cursor = {
      parts,
      part: 0,
      after: null,
      chunk: 1,
      position: 0,
      records: {},
      media: { count: 0, bytes: 0 },
      skippedMedia: [],
    };
    return { cursor, progress: { done: 0, total, records: 0, bytesDone: 0 } };
  }

  async function start(
    actor: { userId: string | null; tokenId: string | null },
    options: ExportOptions,
    within?: (row: OperationRow, trx: Kdb) => Promise<void>,
  ): Promise<OperationRow> {
    const { cursor, progress } = await prepare(options);
    return ctx.db.transaction().execute(async (trx) => {
      const row = await ops.create(trx, {
        kind: 'export',
        state: 'running',
        stage: 'records',
        options: JSON.stringify(options),
        cursor: JSON.stringify(cursor),
        progress: JSON.stringify(progress),
        created_by: actor.userId,
        token_id: actor.tokenId,
      });
      if (within) await within(row, trx);
      return row;
    });
  }

  /** One step: record files until the time is up, then (once every part is read) the manifest. */
  async function step(id: string): Promise<OperationRow> {
    const leased = await ops.claim('export', id, ['running']);
    if (!leased) return ops.get(ctx.db, 'export', id);
    const written: FileRow[] = [];
    try {
      const cursor = CursorSchema.parse(JSON.parse(leased.cursor ?? 'null'));
      const progress = JSON.parse(leased.progress) as Progress;
      const began = Date.now();
      const snap = await deps.schema.snapshot();
      while (cursor.part < cursor.parts.length && (written.length === 0 || Date.now() - began < STEP_MS)) {
        const ref = cursor.parts[cursor.part];
        const part = resolvePart(ref, snap.collections);
        const file = part ? await writeFile(leased.id, part, ref, cursor) : null;
        if (!file) {
          cursor.part += 1;
          cursor.after = null;
          cursor.chunk = 1;
          continue;
        }
        written.push(...file.rows);
        progress.done += file.records;
        progress.records = (progress.records ?? 0) + file.records;
        progress.bytesDone = (progress.bytesDone ?? 0) + file.rows.reduce((n, f) => n + f.size, 0);
      }
      const finished = cursor.part >= cursor.parts.length;
      await ctx.db.transaction().execute(async (trx) => {
        await files.insert(trx, written);
        if (!finished) {
          const ok = await ops.release(trx, leased, {
            cursor: JSON.stringify(cursor),
            progress: JSON.stringify(progress),
          });
          if (!ok) throw lostLease();
          return;
        }
        const manifest = await buildManifest(trx, leased, cursor);
        const text = JSON.stringify(manifest);
        progress.total = progress.done;
        progress.bytesTotal = progress.bytesDone;
        const ok = await ops.release(trx, leased, {
          state: 'complete',
          stage: null,
          cursor: null,
          manifest: text,
          package_digest: packageDigest(text),
          totals: JSON.stringify({ ...manifest.totals, skippedMedia: cursor.skippedMedia.length }),
          progress: JSON.stringify(progress),
          completed_at: ops.now(),
        });
        if (!ok) throw lostLease();
      });
    } catch (err) {
      await Promise.all(written.filter((f) => f.owned).map((f) => storage.delete(f.storage_key as string)));
      if (err instanceof LostLease) return ops.get(ctx.db, 'export', id);
      await fail(leased, err);
    }
    return ops.get(ctx.db, 'export', id);
  }

  /**
   * The next record file of a part (and, for media, the file of each item's
   * bytes), or null when the part has no rows left. Advances the cursor.
   */
  async function writeFile(
    operationId: string,
    part: Part,
    ref: PartRef,
    cursor: Cursor,
  ): Promise<{ rows: FileRow[]; records: number } | null> {
    const path = recordPath(ref.kind, cursor.chunk, ref.collection);
    const writer = await RecordFileWriter.open(path);
    const mediaFiles: FileRow[] = [];
    let after: KeyValue[] | null = cursor.after;
    try {
      while (writer.rows < FILE_ROWS && writer.bytes < FILE_BYTES) {
        const rows = await readRows(ctx.db, part, after, READ_BATCH);
        for (const row of rows) {
          after = keyOf(part, row);
          if (part.kind === 'media') {
            const file = await mediaFile(operationId, row, cursor);
            if (!file) continue;
            mediaFiles.push(file);
          }
          await writer.write(row);
        }
        if (rows.length < READ_BATCH) break;
      }
      if (writer.rows === 0) {
        await writer.discard();
        if (after === cursor.after) return null;
        // Every row read was a media item without bytes: the part goes on after them.
        cursor.after = after;
        return { rows: [], records: 0 };
      }
      const stored = await writer.finish(storage);
      cursor.after = after;
      cursor.chunk += 1;
      cursor.records[ref.kind] = (cursor.records[ref.kind] ?? 0) + stored.rows;
      const recordFile: FileRow = {
        operation_id: operationId,
        path,
        kind: ref.kind,
        collection: ref.collection ?? null,
        storage_key: stored.key,
        owned: 1,
        size: stored.size,
        sha256: stored.sha256,
        records: stored.rows,
        position: ++cursor.position,
        created_at: ops.now(),
        uploaded_at: null,
      };
      // The record file comes before the bytes of the items it lists.
      for (const f of mediaFiles) f.position = ++cursor.position;
      return { rows: [recordFile, ...mediaFiles], records: stored.rows };
    } catch (err) {
      await writer.discard();
      throw err;
    }
  }

  /** The package file of one media item's bytes, or null (counted as skipped) when storage has none. */
  async function mediaFile(operationId: string, row: Record<string, unknown>, cursor: Cursor): Promise<FileRow | null> {
    const key = String(row.storage_key);
    const info = await storage.head(key);
    const hash =
      typeof row.content_hash === 'string' && /^sha256:[0-9a-f]{64}$/.test(row.content_hash)
        ? row.content_hash.slice(7)
        : info
          ? await hashStored(storage, key)
          : null;
    if (!info || !hash) {
      if (cursor.skippedMedia.length < SKIPPED_LISTED) cursor.skippedMedia.push(String(row.id));
      return null;
    }
    cursor.media.count += 1;
    cursor.media.bytes += info.size;
    return {
      operation_id: operationId,
      path: mediaPath(String(row.id), key),
      kind: MEDIA_FILE_KIND,
      collection: null,
      storage_key: key,
      owned: 0,
      size: info.size,
      sha256: hash,
      records: null,
      position: 0,
      created_at: ops.now(),
      uploaded_at: null,
    };
  }

  async function buildManifest(trx: Kdb, op: OperationRow, cursor: Cursor): Promise<Manifest> {
    const rows = await trx
      .selectFrom('_cms_transfer_files')
      .select(['path', 'kind', 'collection', 'size', 'sha256', 'records'])
      .where('operation_id', '=', op.id)
      .orderBy('position')
      .execute();
    const [title, tagline] = await Promise.all([storedSetting(trx, 'title'), storedSetting(trx, 'tagline')]);
    const options = JSON.parse(op.options) as ExportOptions;
    const { i18n } = ctx.config;
    return {
      format: PACKAGE_FORMAT,
      formatVersion: PACKAGE_FORMAT_VERSION,
      generator: { name: 'cms', version: RELEASE_VERSION },
      schemaVersion: migrations[migrations.length - 1].name,
      createdAt: op.created_at,
      source: {
        url: ctx.config.publicUrl,
        title: typeof title === 'string' ? title : null,
        tagline: typeof tagline === 'string' ? tagline : null,
        locales: [...i18n.locales],
        defaultLocale: i18n.defaultLocale,
      },
      options,
      files: rows.map((r) => ({
        path: r.path,
        kind: r.kind,
        ...(r.collection ? { collection: r.collection } : {}),
        size: Number(r.size),
        sha256: r.sha256,
        ...(r.records === null ? {} : { records: Number(r.records) }),
      })),
      totals: {
        records: cursor.records,
        media: cursor.media,
        files: { count: rows.length, bytes: rows.reduce((n, r) => n + Number(r.size), 0) },
      },
      skippedMedia: cursor.skippedMedia,
    };
  }

  async function fail(leased: OperationRow, err: unknown): Promise<void> {
    const known = err instanceof CmsError;
    if (!known) ctx.log.error({ err, operation: leased.id }, 'transfer export step failed');
    await ctx.db.transaction().execute(async (trx) => {
      await ops.release(trx, leased, {
        state: 'failed',
        error_code: known ? err.code : 'INTERNAL_ERROR',
        error_message: known ? err.message : 'The export stopped on an unexpected error',
        completed_at: ops.now(),
      });
    });
  }

  return { start, step, summarize };
}

class LostLease extends Error {}
const lostLease = () => new LostLease('lease lost');

export type ExportOps = ReturnType<typeof exportOps>;

import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import type { MediaUsageTable } from '../../db/tables-usage.js';
import { decodeData } from '../content/rows.js';
import { MEDIA_CAPABLE, mediaRefsOf } from '../media/field-refs.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import { type IndexedEntry, loadChunk, loadEntries } from '../search/documents.js';

/**
 * The index rows of entries: which library items each active row (one per
 * entry and locale) references, through which top-level field, and whether
 * the reference is live or only in the pending draft. Trashed rows have none.
 */

const INSERT_CHUNK = 400;

/** Collections whose values can hold library references; others cost index maintenance nothing. */
export const indexesCollection = (c: CollectionInfo): boolean => c.fields.some((f) => MEDIA_CAPABLE.has(f.type));

/** One entry's rows; throws when its stored values cannot be read. */
export function rowsOf(c: CollectionInfo, entry: IndexedEntry, snap: SchemaSnapshot): MediaUsageTable[] {
  const row = entry.row;
  if (row.deleted_at !== null) return [];
  const fieldIds = new Map(c.fields.map((f) => [f.slug, f.id]));
  const found = new Map<string, MediaUsageTable>();
  const add = (data: Record<string, unknown>, live: boolean) => {
    for (const ref of mediaRefsOf(c.fields, data, snap)) {
      const fieldId = fieldIds.get(ref.field);
      if (!fieldId) continue;
      const key = `${fieldId}\u0000${ref.id}`;
      const had = found.get(key);
      if (had) had.live = had.live || live ? 1 : 0;
      else
        found.set(key, {
          collection_id: c.id,
          entry_id: row.id,
          field_id: fieldId,
          media_id: ref.id,
          locale: row.locale,
          live: live ? 1 : 0,
        });
    }
  };
  add(decodeData(c, row as unknown as Record<string, unknown>), true);
  if (entry.draft) add(entry.draft.data, false);
  return [...found.values()];
}

export async function insertRows(trx: Kdb, rows: MediaUsageTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('_cms_media_usage')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  }
}

/** Drop the given entries' rows (permanent delete, trash). */
export async function dropEntries(trx: Kdb, c: CollectionInfo, ids: string[]): Promise<void> {
  await trx.deleteFrom('_cms_media_usage').where('collection_id', '=', c.id).where('entry_id', 'in', ids).execute();
}

/**
 * Rewrite the given entries' rows from their state in this transaction.
 * `fresh`: the entries were just made (create, duplicate), so no row can exist yet.
 */
export async function reindexEntries(
  trx: Kdb,
  c: CollectionInfo,
  ids: string[],
  snap: SchemaSnapshot,
  fresh: boolean,
): Promise<void> {
  if (!fresh) await dropEntries(trx, c, ids);
  const entries = await loadEntries(trx, c, ids);
  await insertRows(
    trx,
    entries.flatMap((e) => rowsOf(c, e, snap)),
  );
}

export interface RangeResult {
  /** Last entry ID this step read (the next step's cursor). */
  last: string | null;
  done: boolean;
  entries: number;
  referencing: number;
  references: number;
  skipped: number;
}

/**
 * One step of (re)building a collection's rows: the next `limit` entries
 * after `cursor` in ID order. The rows of the ID range the step covers are
 * replaced as a whole (entries deleted meanwhile lose theirs); the last step
 * also clears everything after it. Entries whose stored values cannot be
 * read are skipped and counted.
 */
export async function indexRange(
  trx: Kdb,
  c: CollectionInfo,
  cursor: string | null,
  limit: number,
  snap: SchemaSnapshot,
): Promise<RangeResult> {
  const chunk = await loadChunk(trx, c, cursor, limit);
  const done = chunk.ids.length < limit;
  let q = trx.deleteFrom('_cms_media_usage').where('collection_id', '=', c.id);
  if (cursor !== null) q = q.where('entry_id', '>', cursor);
  if (!done && chunk.last !== null) q = q.where('entry_id', '<=', chunk.last);
  await q.execute();
  const { rows, referencing, skipped } = rowsOfRange(c, chunk.entries, snap);
  await insertRows(trx, rows);
  return {
    last: chunk.last ?? cursor,
    done,
    entries: chunk.entries.length,
    referencing,
    references: rows.length,
    skipped: skipped.length,
  };
}

/**
 * The rows a range of entries implies, without writing (an index step writes them; the
 * consistency checker compares them): entries whose stored values cannot be read are listed
 * in `skipped` and have none.
 */
export function rowsOfRange(
  c: CollectionInfo,
  entries: IndexedEntry[],
  snap: SchemaSnapshot,
): { rows: MediaUsageTable[]; referencing: number; skipped: string[] } {
  const rows: MediaUsageTable[] = [];
  const skipped: string[] = [];
  let referencing = 0;
  for (const entry of entries) {
    try {
      const mine = rowsOf(c, entry, snap);
      if (mine.length) referencing++;
      rows.push(...mine);
    } catch {
      skipped.push(entry.row.id);
    }
  }
  return { rows, referencing, skipped };
}

/**
 * Entry writes take a collection's lock shared, index steps exclusive
 * (PostgreSQL; SQLite has one writer): a step never reads an entry that a
 * concurrent write is changing without that write rewriting the rows after it.
 */
const LOCK_CLASS = 726_354_012;

export async function lockCollectionIndex(
  trx: Kdb,
  dialect: DialectName,
  collectionId: string,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  if (dialect !== 'postgres') return;
  const fn = sql.raw(mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock');
  await sql`select ${fn}(${LOCK_CLASS}, hashtext(${collectionId}))`.execute(trx);
}

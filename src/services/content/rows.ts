import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { type ColumnKind, type DialectName, decodeValue, encodeValue } from '../../db/dialect.js';
import type { LocksTable } from '../../db/tables.js';
import { COLUMN_KIND } from '../fields/types.js';
import type { CollectionInfo, FieldInfo } from '../schema/model.js';
import type { EntryRow } from './model.js';
import { staleWrite } from './rev.js';

/**
 * Reading and writing entry table rows. Entry tables are dynamic, so this is
 * the one place that talks to them without Kysely's table types.
 */
// biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
export type DynDb = Kdb & any;

export const dyn = (db: Kdb): DynDb => db as DynDb;

/** Fields that hold a value in a column (relation-bound references do not). */
export function valueFields(c: CollectionInfo): FieldInfo[] {
  return c.fields.filter((f) => f.column !== null);
}

/** A legacy multi-ID reference stores its JSON array in a text column. */
function isLegacyMulti(f: FieldInfo): boolean {
  return f.type === 'reference' && f.options?.allowMultiple === true;
}

interface FieldDecoder {
  slug: string;
  column: string;
  kind: ColumnKind;
  legacyMulti: boolean;
  blocks: boolean;
}

/** Per field list (a schema snapshot's collections never change): decoding a page of rows repeats none of this. */
const decoders = new WeakMap<FieldInfo[], FieldDecoder[]>();

function decodersOf(c: CollectionInfo): FieldDecoder[] {
  let list = decoders.get(c.fields);
  if (!list) {
    list = valueFields(c).map((f) => ({
      slug: f.slug,
      column: f.column as string,
      kind: COLUMN_KIND[f.type],
      legacyMulti: isLegacyMulti(f),
      blocks: f.type === 'blocks',
    }));
    decoders.set(c.fields, list);
  }
  return list;
}

export function decodeData(c: CollectionInfo, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of decodersOf(c)) {
    const raw = row[f.column];
    if (f.legacyMulti) out[f.slug] = typeof raw === 'string' ? decodeValue('json', raw) : (raw ?? null);
    // A blocks field is never null (spec: it defaults to an empty array), whatever a row predating it holds.
    else out[f.slug] = f.blocks && (raw === null || raw === undefined) ? [] : decodeValue(f.kind, raw);
  }
  return out;
}

/** Column values for the given data keys (only fields present in `data`). */
export function encodeData(
  dialect: DialectName,
  c: CollectionInfo,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of valueFields(c)) {
    if (!Object.hasOwn(data, f.slug)) continue;
    const value = data[f.slug];
    if (isLegacyMulti(f)) {
      out[f.column as string] = value === null || value === undefined ? null : JSON.stringify(value);
      continue;
    }
    out[f.column as string] = encodeValue(dialect, COLUMN_KIND[f.type], value);
  }
  return out;
}

export async function loadRow(db: Kdb, c: CollectionInfo, id: string): Promise<EntryRow | undefined> {
  return dyn(db).selectFrom(c.table).selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Load a row to change it: on PostgreSQL the row is locked until the
 * transaction ends, so concurrent writers queue instead of failing the
 * compare-and-set (SQLite transactions are already serialised).
 */
export async function loadRowForWrite(
  db: Kdb,
  dialect: DialectName,
  c: CollectionInfo,
  id: string,
): Promise<EntryRow | undefined> {
  return (await loadForWrite(db, dialect, c, id, false)).row;
}

const LOCK_COLUMNS = ['user_id', 'user_name', 'token', 'acquired_at', 'expires_at'] as const;

/**
 * The row to change and, in the same statement, its edit-lock lease (when the
 * collection uses locks): one round trip instead of two on every guarded write.
 */
export async function loadForWrite(
  db: Kdb,
  dialect: DialectName,
  c: CollectionInfo,
  id: string,
  withLock: boolean,
): Promise<{ row: EntryRow | undefined; lock: LocksTable | undefined }> {
  let q = dyn(db).selectFrom(c.table).selectAll(c.table).where(`${c.table}.id`, '=', id);
  if (withLock) {
    q = q
      .leftJoin('_cms_locks as _l', (join: DynDb) =>
        join.on('_l.collection_id', '=', c.id).onRef('_l.entry_id', '=', `${c.table}.id`),
      )
      .select(LOCK_COLUMNS.map((col) => `_l.${col} as _lock_${col}`));
  }
  // The lease row is not locked: the entry row's lock already serialises its writers.
  if (dialect === 'postgres') q = q.forUpdate(c.table);
  const raw: Record<string, unknown> | undefined = await q.executeTakeFirst();
  if (!raw || !withLock) return { row: raw as EntryRow | undefined, lock: undefined };
  const lock = raw._lock_user_id === null ? undefined : ({ collection_id: c.id, entry_id: id } as LocksTable);
  for (const col of LOCK_COLUMNS) {
    if (lock) (lock as unknown as Record<string, unknown>)[col] = raw[`_lock_${col}`];
    delete raw[`_lock_${col}`];
  }
  return { row: raw as EntryRow, lock };
}

export async function loadRowBySlug(
  db: Kdb,
  c: CollectionInfo,
  slug: string,
  locale: string,
): Promise<EntryRow | undefined> {
  return dyn(db)
    .selectFrom(c.table)
    .selectAll()
    .where('locale', '=', locale)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** Entries of one translation group (every locale), trashed ones included. */
export async function loadGroup(db: Kdb, c: CollectionInfo, group: string): Promise<EntryRow[]> {
  return dyn(db).selectFrom(c.table).selectAll().where('translation_group', '=', group).orderBy('locale').execute();
}

/**
 * Compare-and-set update: applies only when the row still has `version`.
 * Returns false when another write got there first.
 */
export async function casUpdate(
  db: Kdb,
  c: CollectionInfo,
  id: string,
  version: number,
  set: Record<string, unknown>,
): Promise<boolean> {
  const result = await dyn(db)
    .updateTable(c.table)
    .set({ ...set, version: version + 1 })
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** casUpdate that answers a lost race with REV_CONFLICT. */
export async function updateRow(
  db: Kdb,
  c: CollectionInfo,
  row: EntryRow,
  set: Record<string, unknown>,
): Promise<void> {
  if (!(await casUpdate(db, c, row.id, row.version, set))) throw staleWrite();
}

/** System columns of a new entry (a draft unless told otherwise). */
export function newEntryRow(init: {
  id: string;
  slug: string | null;
  locale: string;
  group: string;
  authorId: string | null;
  now: string;
  published?: boolean;
}): EntryRow {
  return {
    id: init.id,
    slug: init.slug,
    status: init.published ? 'published' : 'draft',
    locale: init.locale,
    translation_group: init.group,
    author_id: init.authorId,
    primary_byline_id: null,
    created_at: init.now,
    updated_at: init.now,
    published_at: init.published ? init.now : null,
    scheduled_at: null,
    deleted_at: null,
    version: 1,
    live_revision_id: null,
    draft_revision_id: null,
  };
}

export async function slugTaken(
  db: Kdb,
  c: CollectionInfo,
  slug: string,
  locale: string,
  exceptId?: string,
): Promise<boolean> {
  let q = dyn(db).selectFrom(c.table).select('id').where('locale', '=', locale).where('slug', '=', slug);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

/** Value of a unique field already used by another live entry of the locale. */
export async function uniqueTaken(
  db: Kdb,
  c: CollectionInfo,
  f: FieldInfo,
  encoded: unknown,
  locale: string,
  exceptId?: string,
): Promise<boolean> {
  let q = dyn(db)
    .selectFrom(c.table)
    .select('id')
    .where('locale', '=', locale)
    .where(sql.ref(f.column as string), '=', encoded)
    .where('deleted_at', 'is', null);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return !!(await q.limit(1).executeTakeFirst());
}

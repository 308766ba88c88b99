import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { type ColumnKind, type DialectName, decodeValue } from '../../db/dialect.js';
import { dyn } from '../content/rows.js';
import { COLUMN_KIND } from '../fields/types.js';
import { SYSTEM_COLUMNS } from '../schema/ddl.js';
import type { CollectionInfo } from '../schema/model.js';
import { ENTRIES_AFTER, ENTRIES_KIND, ENTRY_USER_COLUMNS, RECORD_KINDS, type RecordKind } from './kinds.js';

/**
 * One table an export reads, in keyset order: a system table of a record
 * kind, or a collection's entry table. Entry values are written in a form
 * both databases read back alike (JSON values as JSON, booleans as booleans),
 * whatever the database that stored them.
 */
export interface Part {
  kind: string;
  collection?: string;
  table: string;
  key: readonly string[];
  /** Columns read; null: every column of the table. */
  columns: readonly string[] | null;
  users: readonly string[];
  where?: RecordKind['where'];
  /** Storage kind of columns whose values are decoded (entry field columns). */
  decode: ReadonlyMap<string, ColumnKind>;
}

/** The name of a part, as an export's cursor keeps it. */
export interface PartRef {
  kind: string;
  collection?: string;
}

export function kindPart(k: RecordKind): Part {
  return {
    kind: k.kind,
    table: k.table,
    key: k.key,
    columns: k.columns ?? null,
    users: k.users ?? [],
    where: k.where,
    decode: new Map(),
  };
}

/** A collection's entry table: system columns, each field's column, and a legacy reference's retired column. */
export function entryPart(c: CollectionInfo): Part {
  const decode = new Map<string, ColumnKind>();
  const columns: string[] = SYSTEM_COLUMNS.map((col) => col.name);
  for (const f of c.fields) {
    if (f.column) {
      columns.push(f.column);
      decode.set(f.column, COLUMN_KIND[f.type]);
    }
    if (f.retiredColumn) {
      columns.push(f.retiredColumn);
      decode.set(f.retiredColumn, 'text');
    }
  }
  return {
    kind: ENTRIES_KIND,
    collection: c.slug,
    table: c.table,
    key: ['id'],
    columns,
    users: ENTRY_USER_COLUMNS,
    decode,
  };
}

/** The parts of an export, in import order (entries after the kinds they point at). */
export function exportParts(collections: CollectionInfo[], options: { comments: boolean }): PartRef[] {
  const out: PartRef[] = [];
  for (const k of RECORD_KINDS) {
    if (k.option === 'comments' && !options.comments) continue;
    out.push({ kind: k.kind });
    if (k.kind === ENTRIES_AFTER) {
      for (const c of [...collections].sort((a, b) => a.slug.localeCompare(b.slug))) {
        out.push({ kind: ENTRIES_KIND, collection: c.slug });
      }
    }
  }
  return out;
}

/** The part a reference names now, or null when its collection has gone since the export began. */
export function resolvePart(ref: PartRef, collections: ReadonlyMap<string, CollectionInfo>): Part | null {
  if (ref.kind === ENTRIES_KIND) {
    const c = ref.collection ? collections.get(ref.collection) : undefined;
    return c ? entryPart(c) : null;
  }
  const k = RECORD_KINDS.find((r) => r.kind === ref.kind);
  return k ? kindPart(k) : null;
}

export type KeyValue = string | number;

/** Rows of a part after the keyset position `after`, in key order. */
export async function readRows(
  db: Kdb,
  part: Part,
  after: readonly KeyValue[] | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  let q = dyn(db).selectFrom(part.table);
  q = part.columns ? q.select(part.columns.map((c) => `${c}`)) : q.selectAll();
  if (part.where) q = q.where(part.where.column, '=', part.where.value);
  if (after) {
    const cols = sql.join(part.key.map((k) => sql.ref(k)));
    const vals = sql.join(after.map((v) => sql.val(v)));
    q = q.where(part.key.length === 1 ? sql`${cols} > ${vals}` : sql`(${cols}) > (${vals})`);
  }
  for (const k of part.key) q = q.orderBy(k);
  const rows = (await q.limit(limit).execute()) as Record<string, unknown>[];
  if (part.decode.size === 0) return rows;
  for (const row of rows) {
    for (const [column, kind] of part.decode) {
      if (column in row) row[column] = decodeValue(kind, row[column]);
    }
  }
  return rows;
}

/** The keyset position of a row. */
export function keyOf(part: Part, row: Record<string, unknown>): KeyValue[] {
  return part.key.map((k) => row[k] as KeyValue);
}

/** Rows a part holds now (the export's progress total). */
export async function countRows(db: Kdb, part: Part): Promise<number> {
  let q = dyn(db).selectFrom(part.table).select(sql<number>`count(*)`.as('n'));
  if (part.where) q = q.where(part.where.column, '=', part.where.value);
  const row = (await q.executeTakeFirst()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/** What a system table's column takes: text, a whole number or a finite number, and whether it may be left empty. */
export interface ColumnShape {
  integer: boolean;
  /** A floating-point column (the media focal point's fractions). */
  real: boolean;
  /** NULL is accepted, or the column has a default an omitted value takes. */
  optional: boolean;
  nullable: boolean;
}

export type ColumnShapes = ReadonlyMap<string, ColumnShape>;

/** The columns of a record kind's system table (the table named by RECORD_KINDS, never by input). */
export async function kindColumns(db: Kdb, dialect: DialectName, table: string): Promise<ColumnShapes> {
  if (!RECORD_KINDS.some((k) => k.table === table)) throw new Error(`not a record kind's table: ${table}`);
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ name: string; type: string; notnull: number; dflt: unknown; pk: number }>`
          select name, type, "notnull", dflt_value as dflt, pk from pragma_table_info(${table})`.execute(db)
      : await sql<{ name: string; type: string; notnull: number; dflt: unknown; pk: number }>`
          select column_name as name, data_type as type, case when is_nullable = 'NO' then 1 else 0 end as "notnull",
            column_default as dflt, 0 as pk
          from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return new Map(
    rows.map((r) => {
      // SQLite lets a primary key column hold NULL unless it says NOT NULL; no table here wants that.
      const nullable = Number(r.notnull) === 0 && Number(r.pk) === 0;
      return [
        r.name,
        {
          integer: /int/i.test(r.type),
          real: /real|double|float|numeric/i.test(r.type),
          nullable,
          optional: nullable || (r.dflt !== null && r.dflt !== undefined),
        },
      ];
    }),
  );
}

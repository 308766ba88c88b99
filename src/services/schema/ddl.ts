import { type Kysely, sql } from 'kysely';
import { sha256Hex } from '../../core/ids.js';
import { assertIdentifier, type ColumnKind, columnType, type DialectName } from '../../db/dialect.js';

/**
 * Structure changes of entry tables (`ec_<slug>`), the same calls on both
 * dialects. Every identifier passes assertIdentifier before it reaches SQL.
 */
// biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
type AnyDb = Kysely<any>;

export const ENTRY_TABLE_PREFIX = 'ec_';

export function entryTable(collectionSlug: string): string {
  return assertIdentifier(ENTRY_TABLE_PREFIX + collectionSlug);
}

/** System columns every entry table has, in order. */
export const SYSTEM_COLUMNS: ReadonlyArray<{ name: string; kind: ColumnKind; notNull?: boolean }> = [
  { name: 'id', kind: 'text', notNull: true },
  { name: 'slug', kind: 'text' },
  { name: 'status', kind: 'text', notNull: true },
  { name: 'locale', kind: 'text', notNull: true },
  { name: 'translation_group', kind: 'text', notNull: true },
  { name: 'author_id', kind: 'text' },
  { name: 'primary_byline_id', kind: 'text' },
  { name: 'created_at', kind: 'text', notNull: true },
  { name: 'updated_at', kind: 'text', notNull: true },
  { name: 'published_at', kind: 'text' },
  { name: 'scheduled_at', kind: 'text' },
  { name: 'deleted_at', kind: 'text' },
  { name: 'version', kind: 'integer', notNull: true },
  { name: 'live_revision_id', kind: 'text' },
  { name: 'draft_revision_id', kind: 'text' },
];

export const SYSTEM_COLUMN_NAMES: ReadonlySet<string> = new Set(SYSTEM_COLUMNS.map((c) => c.name));

/** Short, stable, dialect-safe index name (PostgreSQL truncates identifiers at 63 bytes). */
export function indexName(table: string, suffix: string): string {
  const name = `${table}_${suffix}`;
  if (name.length <= 63) return assertIdentifier(name);
  return assertIdentifier(`ix_${sha256Hex(table).slice(0, 10)}_${suffix}`.slice(0, 63));
}

interface IndexSpec {
  name: string;
  columns: string[];
  unique?: boolean;
  where?: string;
  /** A sort column that may hold NULL (see orderIndex). */
  nullable?: string;
}

/** Indexes backing the list orders and lookups of every entry table. */
export function systemIndexes(table: string): IndexSpec[] {
  return [
    { name: indexName(table, 'locale_slug'), columns: ['locale', 'slug'], unique: true, nullable: 'slug' },
    { name: indexName(table, 'group_locale'), columns: ['translation_group', 'locale'], unique: true },
    { name: indexName(table, 'by_created'), columns: ['locale', 'created_at', 'id'] },
    { name: indexName(table, 'by_updated'), columns: ['locale', 'updated_at', 'id'] },
    {
      name: indexName(table, 'by_published'),
      columns: ['locale', 'published_at', 'id'],
      nullable: 'published_at',
    },
    { name: indexName(table, 'by_status'), columns: ['locale', 'status', 'created_at', 'id'] },
    { name: indexName(table, 'by_author'), columns: ['author_id', 'created_at', 'id'] },
    { name: indexName(table, 'scheduled'), columns: ['scheduled_at'], where: 'scheduled_at is not null' },
    { name: indexName(table, 'trashed'), columns: ['deleted_at', 'id'], where: 'deleted_at is not null' },
  ];
}

export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
}

export async function createEntryTable(
  db: AnyDb,
  dialect: DialectName,
  table: string,
  columns: ColumnSpec[],
): Promise<void> {
  assertIdentifier(table);
  let builder = db.schema.createTable(table);
  for (const col of SYSTEM_COLUMNS) {
    const type = sql.raw(columnType(dialect, col.kind));
    builder = builder.addColumn(col.name, type, (c) => {
      let out = col.notNull ? c.notNull() : c;
      if (col.name === 'id') out = out.primaryKey();
      return out;
    });
  }
  for (const col of columns) {
    builder = builder.addColumn(assertIdentifier(col.name), sql.raw(columnType(dialect, col.kind)));
  }
  await builder.execute();
  for (const ix of systemIndexes(table)) await createIndex(db, dialect, table, ix);
}

/**
 * Lists order NULL before every value (ascending; after every value descending), as SQLite's indexes
 * hold it. PostgreSQL's default is the reverse, and an index whose NULL placement differs from the
 * query's cannot give the order: there a sort column that may hold NULL is indexed NULLS FIRST, so
 * both engines read a list in the same order straight from the index, in both directions.
 */
export async function createIndex(db: AnyDb, dialect: DialectName, table: string, ix: IndexSpec): Promise<void> {
  if (ix.nullable && dialect === 'postgres') {
    const columns = ix.columns.map((c) => (c === ix.nullable ? sql`${sql.ref(c)} nulls first` : sql.ref(c)));
    const unique = ix.unique ? sql`unique ` : sql``;
    const where = ix.where ? sql` where ${sql.raw(ix.where)}` : sql``;
    await sql`create ${unique}index ${sql.id(ix.name)} on ${sql.table(table)} (${sql.join(columns)})${where}`.execute(
      db,
    );
    return;
  }
  let b = db.schema.createIndex(ix.name).on(table).columns(ix.columns);
  if (ix.unique) b = b.unique();
  if (ix.where) b = b.where(sql.raw<boolean>(ix.where));
  await b.execute();
}

export async function dropEntryTable(db: AnyDb, table: string): Promise<void> {
  await db.schema.dropTable(assertIdentifier(table)).ifExists().execute();
}

export async function addColumn(db: AnyDb, dialect: DialectName, table: string, column: ColumnSpec): Promise<void> {
  await db.schema
    .alterTable(assertIdentifier(table))
    .addColumn(assertIdentifier(column.name), sql.raw(columnType(dialect, column.kind)))
    .execute();
}

export async function renameColumn(db: AnyDb, table: string, from: string, to: string): Promise<void> {
  await db.schema
    .alterTable(assertIdentifier(table))
    .renameColumn(assertIdentifier(from), assertIdentifier(to))
    .execute();
}

export async function dropColumn(db: AnyDb, table: string, column: string): Promise<void> {
  await db.schema.alterTable(assertIdentifier(table)).dropColumn(assertIdentifier(column)).execute();
}

/** Index names of a field are derived from its ID so renames never orphan them. */
export function fieldIndexName(table: string, fieldId: string, kind: 'indexed' | 'unique'): string {
  return indexName(table, `${kind === 'unique' ? 'u' : 'i'}_${fieldId.toLowerCase()}`);
}

export async function createFieldIndex(
  db: AnyDb,
  dialect: DialectName,
  table: string,
  fieldId: string,
  column: string,
  kind: 'indexed' | 'unique',
): Promise<void> {
  const name = fieldIndexName(table, fieldId, kind);
  if (kind === 'unique') {
    // Unique per locale among entries that are not in the trash.
    await db.schema
      .createIndex(name)
      .on(assertIdentifier(table))
      .columns(['locale', assertIdentifier(column)])
      .unique()
      .where(sql.raw<boolean>('deleted_at is null'))
      .execute();
  } else {
    const spec = { name, columns: ['locale', assertIdentifier(column), 'id'], nullable: column };
    await createIndex(db, dialect, assertIdentifier(table), spec);
  }
}

export async function dropFieldIndex(
  db: AnyDb,
  table: string,
  fieldId: string,
  kind: 'indexed' | 'unique',
): Promise<void> {
  await db.schema
    .dropIndex(fieldIndexName(table, fieldId, kind))
    .ifExists()
    .execute();
}

/** Tables named like entry tables (`ec_*`) in the current database or schema. */
export async function listEntryTables(db: AnyDb, dialect: DialectName): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name like 'ec\\_%' escape '\\' order by name`.execute(
      db,
    );
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name like 'ec\\_%' escape '\\' order by table_name`.execute(
    db,
  );
  return rows.map((r) => r.name);
}

export interface TableColumn {
  name: string;
  /** Lower-cased declared SQL type. */
  type: string;
}

export async function tableColumns(db: AnyDb, dialect: DialectName, table: string): Promise<TableColumn[]> {
  assertIdentifier(table);
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      name: string;
      type: string;
    }>`select name, type from pragma_table_info(${table})`.execute(db);
    return rows.map((r) => ({ name: r.name, type: r.type.toLowerCase() }));
  }
  const { rows } = await sql<{ name: string; type: string }>`select column_name as name, data_type as type
    from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(
    db,
  );
  return rows.map((r) => ({ name: r.name, type: r.type.toLowerCase() }));
}

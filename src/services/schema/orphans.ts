import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { FieldType } from '../fields/types.js';
import { SLUG_PATTERN } from '../fields/types.js';
import {
  ENTRY_TABLE_PREFIX,
  entryTable,
  listEntryTables,
  SYSTEM_COLUMN_NAMES,
  SYSTEM_COLUMNS,
  tableColumns,
} from './ddl.js';
import type { SchemaDeps } from './deps.js';
import { DEFAULT_SUPPORTS, type Support } from './model.js';
import { type CollectionView, collectionView } from './present.js';

/** An `ec_*` table that no collection describes (left by a failed import, a restore, a manual change). */
export interface OrphanedTable {
  slug: string;
  table: string;
  /** Rows in the table. */
  rowCount: number;
  /** Columns beyond the system columns, with the field type they would be registered as. */
  columns: Array<{ name: string; sqlType: string; fieldType: FieldType }>;
  /** System columns the table lacks; a table missing any cannot be registered. */
  missingSystemColumns: string[];
}

export interface RegisterOrphanInput {
  label?: string;
  labelSingular?: string;
  supports?: Support[];
  /** Override the inferred field type of some columns. */
  fieldTypes?: Record<string, FieldType>;
}

/** What a column's SQL type (and, for SQLite text, a sample value) says about its field type. */
function inferType(sqlType: string, sample: unknown): FieldType {
  if (sqlType.includes('json')) return 'json';
  if (sqlType === 'boolean') return 'boolean';
  if (sqlType.includes('int')) return 'integer';
  if (
    sqlType.includes('real') ||
    sqlType.includes('double') ||
    sqlType.includes('numeric') ||
    sqlType.includes('float')
  ) {
    return 'number';
  }
  if (typeof sample === 'string' && /^[[{]/.test(sample.trim())) {
    try {
      JSON.parse(sample);
      return 'json';
    } catch {
      // plain text that starts with a bracket
    }
  }
  return 'string';
}

const JSON_TYPES: ReadonlySet<FieldType> = new Set([
  'json',
  'multiSelect',
  'portableText',
  'image',
  'file',
  'repeater',
  'blocks',
]);

export function orphanOps(deps: SchemaDeps) {
  const { ctx } = deps;
  // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
  const dyn = (db: Kdb) => db as any;

  async function describe(db: Kdb, table: string): Promise<OrphanedTable> {
    const cols = await tableColumns(dyn(db), ctx.dialect, table);
    const names = new Set(cols.map((c) => c.name));
    const extra = cols.filter((c) => !SYSTEM_COLUMN_NAMES.has(c.name) && SLUG_PATTERN.test(c.name));
    const sample = extra.length
      ? await dyn(db)
          .selectFrom(table)
          .select(extra.map((c) => c.name))
          .limit(1)
          .executeTakeFirst()
      : undefined;
    const count = await dyn(db)
      .selectFrom(table)
      .select((eb: { fn: { countAll: () => { as: (n: string) => unknown } } }) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    return {
      slug: table.slice(ENTRY_TABLE_PREFIX.length),
      table,
      rowCount: Number(count?.n ?? 0),
      columns: extra.map((c) => ({ name: c.name, sqlType: c.type, fieldType: inferType(c.type, sample?.[c.name]) })),
      missingSystemColumns: SYSTEM_COLUMNS.map((c) => c.name).filter((n) => !names.has(n)),
    };
  }

  async function list(actor: Actor): Promise<OrphanedTable[]> {
    requirePermission(actor, 'schema:read');
    const snap = await deps.cache.get();
    const tables = await listEntryTables(dyn(ctx.db), ctx.dialect);
    const known = new Set([...snap.collections.values()].map((c) => c.table));
    const out: OrphanedTable[] = [];
    for (const table of tables) {
      if (known.has(table) || !SLUG_PATTERN.test(table.slice(ENTRY_TABLE_PREFIX.length))) continue;
      out.push(await describe(ctx.db, table));
    }
    return out;
  }

  /** Describe the table as a collection again: one field per extra column. */
  async function register(actor: Actor, slug: string, input: RegisterOrphanInput): Promise<CollectionView> {
    await deps.write(actor, async (trx, snap) => {
      if (!SLUG_PATTERN.test(slug)) throw notFound(`Orphaned table for "${slug}"`);
      const table = entryTable(slug);
      if (snap.collections.has(slug)) throw new CmsError('ALREADY_EXISTS', `Collection "${slug}" already exists`);
      const tables = await listEntryTables(dyn(trx), ctx.dialect);
      if (!tables.includes(table)) throw notFound(`Orphaned table ${table}`);
      const info = await describe(trx, table);
      if (info.missingSystemColumns.length) {
        throw validationError(
          `Table ${table} is not an entry table: it lacks ${info.missingSystemColumns.join(', ')}`,
          {
            missingSystemColumns: info.missingSystemColumns,
          },
        );
      }
      const now = isoNow(ctx.clock);
      const collectionId = newId();
      const label = input.label ?? slug.replace(/_/g, ' ').replace(/^./, (ch) => ch.toUpperCase());
      const maxOrder = Math.max(-1, ...[...snap.collections.values()].map((c) => c.sortOrder));
      await trx
        .insertInto('_cms_collections')
        .values({
          id: collectionId,
          slug,
          label,
          label_singular: input.labelSingular ?? label,
          description: null,
          icon: null,
          supports: JSON.stringify(input.supports ?? DEFAULT_SUPPORTS),
          sort_order: maxOrder + 1,
          source: 'orphan',
          created_at: now,
          updated_at: now,
        })
        .execute();
      for (const [i, col] of info.columns.entries()) {
        const type = input.fieldTypes?.[col.name] ?? col.fieldType;
        const sqlIsJson = col.sqlType.includes('json');
        if (ctx.dialect === 'postgres' && JSON_TYPES.has(type) !== sqlIsJson) {
          throw validationError(`Column ${col.name} (${col.sqlType}) cannot hold a ${type} field`);
        }
        await trx
          .insertInto('_cms_fields')
          .values({
            id: newId(),
            collection_id: collectionId,
            slug: col.name,
            label: col.name.replace(/_/g, ' ').replace(/^./, (ch) => ch.toUpperCase()),
            type,
            column_name: col.name,
            retired_column: null,
            required: 0,
            is_unique: 0,
            searchable: 0,
            indexed: 0,
            translatable: 1,
            default_value: null,
            validation: null,
            widget: null,
            options: null,
            sort_order: i,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    });
    const snap = await deps.cache.get();
    return collectionView(snap.collections.get(slug)!, snap);
  }

  return { list, register };
}

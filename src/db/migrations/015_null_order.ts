import { sql } from 'kysely';
import { sha256Hex } from '../../core/ids.js';
import { assertIdentifier } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * Lists order NULL first (ascending) on both engines. PostgreSQL's indexes put NULL last by default, and
 * an index whose NULL placement differs from the query's cannot give the order (the whole list was
 * sorted instead): the list indexes of sort columns that may hold NULL — `slug`, `published_at` and
 * indexed fields — are rebuilt NULLS FIRST. SQLite's already are.
 *
 * Frozen: the table and index names and the index definitions are written here as they were when
 * this migration was made, so what it does never changes with the live schema code.
 */
const indexName = (table: string, suffix: string) => {
  const name = `${table}_${suffix}`;
  if (name.length <= 63) return assertIdentifier(name);
  return assertIdentifier(`ix_${sha256Hex(table).slice(0, 10)}_${suffix}`.slice(0, 63));
};

interface NullsFirstIndex {
  name: string;
  columns: string[];
  /** The column that may hold NULL: indexed NULLS FIRST. */
  nullable: string;
  unique?: boolean;
}

export const migration015: Migration = {
  name: '015_null_order',
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    const collections: Array<{ id: string; slug: string }> = await db
      .selectFrom('_cms_collections')
      .select(['id', 'slug'])
      .execute();
    for (const c of collections) {
      const table = assertIdentifier(`ec_${c.slug}`);
      const fields: Array<{ id: string; column_name: string }> = await db
        .selectFrom('_cms_fields')
        .select(['id', 'column_name'])
        .where('collection_id', '=', c.id)
        .where('indexed', '=', 1)
        .where('column_name', 'is not', null)
        .execute();
      const rebuild: NullsFirstIndex[] = [
        { name: indexName(table, 'locale_slug'), columns: ['locale', 'slug'], nullable: 'slug', unique: true },
        { name: indexName(table, 'by_published'), columns: ['locale', 'published_at', 'id'], nullable: 'published_at' },
        ...fields.map((f) => ({
          name: indexName(table, `i_${f.id.toLowerCase()}`),
          columns: ['locale', f.column_name, 'id'],
          nullable: f.column_name,
        })),
      ];
      for (const ix of rebuild) {
        const columns = ix.columns.map((col) =>
          col === ix.nullable ? sql`${sql.ref(col)} nulls first` : sql.ref(col),
        );
        await sql`drop index if exists ${sql.id(ix.name)}`.execute(db);
        await sql`create ${ix.unique ? sql`unique ` : sql``}index ${sql.id(ix.name)} on ${sql.table(table)} (${sql.join(columns)})`.execute(
          db,
        );
      }
    }
  },
};

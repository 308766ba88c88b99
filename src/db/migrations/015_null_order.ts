import { sql } from 'kysely';
import { createIndex, entryTable, fieldIndexName, systemIndexes } from '../../services/schema/ddl.js';
import type { Migration } from './types.js';

/**
 * Lists order NULL first (ascending) on both engines. PostgreSQL's indexes put NULL last by default, and
 * an index whose NULL placement differs from the query's cannot give the order (the whole list was
 * sorted instead): the list indexes of sort columns that may hold NULL — `slug`, `published_at` and
 * indexed fields — are rebuilt NULLS FIRST. SQLite's already are.
 */
export const migration015: Migration = {
  name: '015_null_order',
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    const collections: Array<{ id: string; slug: string }> = await db
      .selectFrom('_cms_collections')
      .select(['id', 'slug'])
      .execute();
    for (const c of collections) {
      const table = entryTable(c.slug);
      const fields: Array<{ id: string; column_name: string }> = await db
        .selectFrom('_cms_fields')
        .select(['id', 'column_name'])
        .where('collection_id', '=', c.id)
        .where('indexed', '=', 1)
        .where('column_name', 'is not', null)
        .execute();
      const rebuild = [
        ...systemIndexes(table).filter((ix) => ix.nullable),
        ...fields.map((f) => ({
          name: fieldIndexName(table, f.id, 'indexed'),
          columns: ['locale', f.column_name, 'id'],
          nullable: f.column_name,
        })),
      ];
      for (const ix of rebuild) {
        await sql`drop index if exists ${sql.id(ix.name)}`.execute(db);
        await createIndex(db, dialect, table, ix);
      }
    }
  },
};

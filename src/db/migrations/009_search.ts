import { type Kysely, sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * Full-text search: one settings row per collection (tokenizer, field
 * weights, which index table is live, the state of a rebuild). The index
 * tables themselves are created per collection by the search service.
 *
 * On PostgreSQL this also installs what the index needs when the database
 * allows it: `unaccent` (accent folding) and `pg_trgm` (the trigram
 * tokenizer), and two text search configurations mirroring SQLite's FTS5
 * tokenizers: `cms_english` (English stemming, no stop words, accents folded)
 * and `cms_simple` (no stemming, accents folded).
 */
export const migration009: Migration = {
  name: '009_search',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));
    await db.schema
      .createTable('_cms_search_collections')
      .addColumn('collection_id', 'text', (c) => c.primaryKey())
      .addColumn('tokenizer', 'text', (c) => c.notNull())
      // JSON: field ID → weight.
      .addColumn('weights', 'text', (c) => c.notNull())
      .addColumn('generation', int, (c) => c.notNull())
      // The index searches read: table base name, its tokenizer and field → tier map (JSON).
      .addColumn('index_table', 'text')
      .addColumn('index_tokenizer', 'text')
      .addColumn('index_tiers', 'text')
      // A rebuild in progress: the table being filled, its shape, and how far it got.
      .addColumn('build_table', 'text')
      .addColumn('build_tokenizer', 'text')
      .addColumn('build_tiers', 'text')
      .addColumn('build_phase', 'text')
      .addColumn('build_cursor', 'text')
      .addColumn('build_done', int, (c) => c.notNull())
      .addColumn('build_total', int, (c) => c.notNull())
      .addColumn('build_started_at', 'text')
      .addColumn('build_reason', 'text')
      .addColumn('last_rebuild_at', 'text')
      .addColumn('last_rebuild_ms', int)
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    if (dialect === 'postgres') await postgresTextSearch(db);
  },
};

/**
 * Extensions are database-wide: install them in `public` (so a schema dropped
 * later does not take them along) and fall back to the current schema. A
 * database that refuses (managed service without the extension allowed, no
 * privilege) still gets working configurations, without accent folding or
 * trigram search; `GET /search/stats` reports what is available.
 */
// biome-ignore lint/suspicious/noExplicitAny: runs before typed access to the new table
async function postgresTextSearch(db: Kysely<any>): Promise<void> {
  for (const ext of ['unaccent', 'pg_trgm']) {
    if (await extensionSchema(db, ext)) continue;
    for (const target of [sql` with schema public`, sql``]) {
      if (await attempt(db, sql`create extension if not exists ${sql.raw(ext)}${target}`)) break;
    }
  }
  const unaccent = await extensionSchema(db, 'unaccent');
  const filter = unaccent ? sql`${sql.id(unaccent)}.unaccent, ` : sql``;
  // English stemming without a stop-word list, like FTS5's porter tokenizer.
  await sql`create text search dictionary cms_english_stem (template = snowball, language = english)`.execute(db);
  await sql`create text search configuration cms_english (copy = english)`.execute(db);
  await sql`alter text search configuration cms_english
    alter mapping for asciiword, asciihword, hword_asciipart with cms_english_stem`.execute(db);
  await sql`alter text search configuration cms_english
    alter mapping for word, hword, hword_part with ${filter}cms_english_stem`.execute(db);
  await sql`create text search configuration cms_simple (copy = simple)`.execute(db);
  if (unaccent) {
    await sql`alter text search configuration cms_simple
      alter mapping for word, hword, hword_part with ${filter}simple`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see above
async function extensionSchema(db: Kysely<any>, name: string): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = ${name}`.execute(db);
  return rows[0]?.schema ?? null;
}

/** Run one statement inside a savepoint: a refusal must not abort the migration's transaction. */
// biome-ignore lint/suspicious/noExplicitAny: see above
async function attempt(db: Kysely<any>, statement: ReturnType<typeof sql>): Promise<boolean> {
  await sql`savepoint cms_search_ext`.execute(db);
  try {
    await statement.execute(db);
    await sql`release savepoint cms_search_ext`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint cms_search_ext`.execute(db);
    return false;
  }
}

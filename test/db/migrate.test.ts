import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { MigrationLockError, migrate } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { freshDatabase, PG_URL, postgresAvailable } from '../helpers/db.js';

describe('migrations [sqlite]', () => {
  it('apply once and are a no-op the second time', async () => {
    const { database, drop } = await freshDatabase('sqlite');
    expect(await migrate(database)).toEqual(migrations.map((m) => m.name));
    expect(await migrate(database)).toEqual([]);
    await drop();
  });
});

describe.skipIf(!postgresAvailable)('migrations [postgres]', () => {
  it('are safe when several processes start at once', async () => {
    const { database, schema, drop } = await freshDatabase('postgres');
    const others = [1, 2, 3].map(() => connect(PG_URL, { schema, poolSize: 2 }));
    const results = await Promise.all([database, ...others].map((d) => migrate(d)));
    // Exactly one starter applied each migration; the others found it done.
    const applied = results.flat();
    expect(applied.sort()).toEqual(migrations.map((m) => m.name).sort());
    const rows = await database.db.selectFrom('_cms_migrations').selectAll().execute();
    expect(rows).toHaveLength(migrations.length);
    await Promise.all(others.map((d) => d.close()));
    await drop();
  });

  it('rebuilds the list indexes of nullable sort columns NULLS FIRST on a database made before', async () => {
    const { database, drop } = await freshDatabase('postgres');
    const before = migrations.filter((m) => m.name !== '015_null_order');
    await migrate(database, { migrations: before });
    const db = database.db;
    // A collection as an earlier release made it: default (NULLS LAST) indexes on slug, published_at and a field.
    await sql`insert into _cms_collections (id, slug, label, label_singular, supports, sort_order, source, created_at, updated_at)
      values ('c1', 'old', 'Old', 'Old', '[]', 0, 'user', 'x', 'x')`.execute(db);
    await sql`insert into _cms_fields (id, collection_id, slug, label, type, column_name, required, is_unique, searchable,
      indexed, translatable, sort_order, created_at, updated_at)
      values ('F1', 'c1', 'rank', 'Rank', 'integer', 'rank', 0, 0, 0, 1, 1, 0, 'x', 'x')`.execute(db);
    await sql`create table ec_old (id text primary key, locale text, slug text, published_at text, rank bigint)`.execute(
      db,
    );
    await sql`create unique index ec_old_locale_slug on ec_old (locale, slug)`.execute(db);
    await sql`create index ec_old_by_published on ec_old (locale, published_at, id)`.execute(db);
    await sql`create index ec_old_i_f1 on ec_old (locale, rank, id)`.execute(db);
    expect(await migrate(database)).toEqual(['015_null_order']);
    const { rows } = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
      where tablename = 'ec_old' and indexname <> 'ec_old_pkey' order by indexname`.execute(db);
    expect(rows.map((r) => [r.indexname, /NULLS FIRST/.test(r.indexdef)])).toEqual([
      ['ec_old_by_published', true],
      ['ec_old_i_f1', true],
      ['ec_old_locale_slug', true],
    ]);
    expect(rows.find((r) => r.indexname === 'ec_old_locale_slug')?.indexdef).toMatch(/^CREATE UNIQUE INDEX/);
    await drop();
  });

  it('fails fast with a clear error when the lock stays held', async () => {
    const { database, schema, drop } = await freshDatabase('postgres');
    const holder = new pg.Client({ connectionString: PG_URL });
    await holder.connect();
    await holder.query('select pg_advisory_lock(726354001)');
    const started = Date.now();
    await expect(migrate(database, { lockWaitMs: 300 })).rejects.toBeInstanceOf(MigrationLockError);
    expect(Date.now() - started).toBeLessThan(5000);
    await holder.query('select pg_advisory_unlock(726354001)');
    await holder.end();
    expect((await migrate(database)).length).toBe(migrations.length);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from information_schema.tables where table_schema = ${schema}`.execute(database.db);
    expect(rows[0].n).toBeGreaterThan(5);
    await drop();
  });
});

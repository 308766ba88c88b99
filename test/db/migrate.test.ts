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

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { param, runShaped } from '../../src/services/content/statements.js';
import { freshDatabase, PG_URL, postgresAvailable } from '../helpers/db.js';

describe.skipIf(!postgresAvailable)('named statements [postgres]', () => {
  async function onePool() {
    const fresh = await freshDatabase('postgres');
    // One connection: what the statements prepare is visible to the next statement.
    const database = connect(PG_URL, { schema: fresh.schema, poolSize: 1 });
    await sql`create table t (id text primary key, a text)`.execute(database.db);
    await sql`insert into t values ('1', 'one')`.execute(database.db);
    return {
      db: database.db,
      done: async () => {
        await database.close();
        await fresh.drop();
      },
    };
  }
  const byId = (db: any) => () => db.selectFrom('t').selectAll('t').where('t.id', '=', param('id'));
  const prepared = async (db: any) =>
    (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(db)).rows.map((r) => r.name);

  it('prepare a shaped read once per connection and run it by name afterwards', async () => {
    const { db, done } = await onePool();
    const key = `test|${Math.random()}`;
    expect(await runShaped(db, key, byId(db), { id: '1' })).toEqual([{ id: '1', a: 'one' }]);
    const names = await prepared(db);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^cms_\d+$/);
    expect(await runShaped(db, key, byId(db), { id: '2' })).toEqual([]);
    expect(await prepared(db)).toEqual(names);
    // Statements Kysely builds per request stay unnamed.
    await db
      .selectFrom('t' as never)
      .selectAll()
      .execute();
    expect(await prepared(db)).toEqual(names);
    await done();
  });

  it('run a statement again under a new name when its table changed under the plan', async () => {
    const { db, done } = await onePool();
    const key = `test|${Math.random()}`;
    await runShaped(db, key, byId(db), { id: '1' });
    // What another process's schema change does: `t.*` has one more column than the plan.
    await sql`alter table t add column b text default 'bee'`.execute(db);
    expect(await runShaped(db, key, byId(db), { id: '1' })).toEqual([{ id: '1', a: 'one', b: 'bee' }]);
    expect(await prepared(db)).toHaveLength(2);
    await done();
  });

  it('reject a failing statement with the database error, named or not, and keep the connection usable', async () => {
    const { db, done } = await onePool();
    const key = `test|${Math.random()}`;
    const dup = () => sql`insert into t values ('1', 'again')`.execute(db);
    await expect(dup()).rejects.toMatchObject({ code: '23505' });
    const byA = () => (db as any).selectFrom('t').selectAll('t').where('t.a', '=', param('a'));
    await runShaped(db, key, byA, { a: 'one' });
    await expect(runShaped(db, key, byA, { a: 'x'.repeat(10) + '\u0000' })).rejects.toThrow();
    // Kysely's transactions go through the same client calls: a rollback undoes the write.
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into t values ('2', 'two')`.execute(trx);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await runShaped(db, key, byA, { a: 'one' })).toEqual([{ id: '1', a: 'one' }]);
    expect((await sql`select count(*)::int as n from t`.execute(db)).rows).toEqual([{ n: 1 }]);
    await done();
  });
});

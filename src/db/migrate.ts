import { type Kysely, sql } from 'kysely';
import type { Database } from './connect.js';
import { migrations as allMigrations } from './migrations/index.js';
import type { Migration } from './migrations/types.js';
import { snapshotBeforeMigrate } from './snapshot.js';

/** Fixed key of the PostgreSQL advisory lock that serialises migrations. */
const LOCK_KEY = 726_354_001;

export class MigrationLockError extends Error {
  constructor(waitedMs: number) {
    super(
      `another process has held the migration lock for ${Math.round(waitedMs / 1000)}s; ` +
        'refusing to wait longer (is a migration stuck? check pg_locks for advisory lock 726354001)',
    );
    this.name = 'MigrationLockError';
  }
}

export interface MigrateOptions {
  /** How long to wait for another process's migration run before failing. */
  lockWaitMs?: number;
  migrations?: Migration[];
  /** SQLite files: snapshots to keep, taken before pending migrations change an existing database (0: none). */
  snapshots?: number;
}

/** Names of the migrations this code would apply to the database, in order (nothing is changed). */
export async function pendingMigrations(database: Database, list: Migration[] = allMigrations): Promise<string[]> {
  // biome-ignore lint/suspicious/noExplicitAny: the migration table may not exist yet
  const db = database.db as unknown as Kysely<any>;
  const exists =
    database.dialect === 'sqlite'
      ? (
          await sql<{
            n: number;
          }>`select count(*) as n from sqlite_master where type = 'table' and name = '_cms_migrations'`.execute(db)
        ).rows[0]?.n
      : (await sql<{ n: string | null }>`select to_regclass('_cms_migrations')::text as n`.execute(db)).rows[0]?.n;
  if (!exists) return list.map((m) => m.name);
  const done = new Set(
    (await db.selectFrom('_cms_migrations').select('name').execute()).map((r: { name: string }) => r.name),
  );
  return list.filter((m) => !done.has(m.name)).map((m) => m.name);
}

/**
 * Apply pending migrations, each in its own transaction.
 * On PostgreSQL, concurrent starters take a session advisory lock with
 * pg_try_advisory_lock: the loser polls (never blocks inside a transaction, so
 * no deadlock), then finds the work done; past `lockWaitMs` it fails fast.
 * On SQLite, BEGIN IMMEDIATE plus busy_timeout serialises writers.
 */
export async function migrate(database: Database, options: MigrateOptions = {}): Promise<string[]> {
  const list = options.migrations ?? allMigrations;
  const lockWaitMs = options.lockWaitMs ?? 60_000;
  // biome-ignore lint/suspicious/noExplicitAny: the migration table is created here, before typed access makes sense
  const db = database.db as unknown as Kysely<any>;
  return db.connection().execute(async (conn) => {
    if (database.dialect === 'postgres') {
      const started = Date.now();
      for (;;) {
        const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${LOCK_KEY}) as locked`.execute(
          conn,
        );
        if (rows[0]?.locked) break;
        if (Date.now() - started > lockWaitMs) throw new MigrationLockError(Date.now() - started);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    try {
      await conn.schema
        .createTable('_cms_migrations')
        .ifNotExists()
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('applied_at', 'text', (c) => c.notNull())
        .execute();
      const done = new Set(
        (await conn.selectFrom('_cms_migrations').select('name').execute()).map((r: { name: string }) => r.name),
      );
      const applied: string[] = [];
      const pending = list.filter((m) => !done.has(m.name));
      if (pending.length && done.size && options.snapshots) {
        const last = [...done].sort().at(-1) as string;
        await snapshotBeforeMigrate(database, last, options.snapshots);
      }
      for (const m of list) {
        if (done.has(m.name)) continue;
        await conn.transaction().execute(async (trx) => {
          // Re-check inside the transaction: another SQLite process may have applied it meanwhile.
          const again = await trx
            .selectFrom('_cms_migrations')
            .select('name')
            .where('name', '=', m.name)
            .executeTakeFirst();
          if (again) return;
          await m.up(trx, database.dialect);
          await trx
            .insertInto('_cms_migrations')
            .values({ name: m.name, applied_at: new Date().toISOString() })
            .execute();
          applied.push(m.name);
        });
      }
      return applied;
    } finally {
      if (database.dialect === 'postgres') await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

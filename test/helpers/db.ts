import pg from 'pg';
import { describe } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { connect, type Database } from '../../src/db/connect.js';
import type { DialectName } from '../../src/db/dialect.js';

export const PG_URL = process.env.CMS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probePostgres(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (err) {
    if (process.env.CI === 'true') {
      throw new Error(`PostgreSQL at ${PG_URL} is unreachable and CI=true: ${(err as Error).message}`);
    }
    console.warn(`\n[notice] PostgreSQL at ${PG_URL} is unreachable: PostgreSQL suites are SKIPPED.\n`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export const postgresAvailable = await probePostgres();

export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

/** Run the same suite on SQLite and on PostgreSQL (skipped with a notice when PostgreSQL is unreachable locally). */
export function describeEachDialect(name: string, fn: (dialect: DialectName) => void): void {
  describe(`${name} [sqlite]`, () => fn('sqlite'));
  describe.skipIf(!postgresAvailable)(`${name} [postgres]`, () => fn('postgres'));
}

export interface TestDatabase {
  database: Database;
  url: string;
  schema?: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: SQLite in memory, or a new PostgreSQL schema. */
export async function freshDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const database = connect('sqlite::memory:');
    return { database, url: 'sqlite::memory:', drop: () => database.close() };
  }
  const schema = `t_${newId().toLowerCase()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = connect(PG_URL, { schema, poolSize: 4 });
  return {
    database,
    url: PG_URL,
    schema,
    async drop() {
      await database.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

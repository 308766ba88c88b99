import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.js';
import type { Tables } from './tables.js';

// int8 (count(*), bigint columns) as JS numbers; our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export type Kdb = Kysely<Tables>;

export interface Database {
  db: Kdb;
  dialect: DialectName;
  /** Number of SQL statements executed so far (for query-budget tests). */
  readonly queryCount: number;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** PostgreSQL schema to use as search_path (tests use a fresh one each). */
  schema?: string;
  poolSize?: number;
}

export function dialectOf(url: string): DialectName {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new Error(`unsupported database URL: ${url.split(':')[0]}`);
}

export function connect(url: string, options: ConnectOptions = {}): Database {
  const dialect = dialectOf(url);
  let count = 0;
  const log = (event: { level: string }) => {
    if (event.level === 'query' || event.level === 'error') count++;
  };
  let db: Kdb;
  if (dialect === 'sqlite') {
    const file = url.slice('sqlite:'.length);
    const memory = file === ':memory:' || file === '';
    if (!memory) mkdirSync(dirname(file), { recursive: true });
    const native = new SqliteDatabase(memory ? ':memory:' : file);
    native.pragma('foreign_keys = ON');
    native.pragma('busy_timeout = 5000');
    if (!memory) {
      native.pragma('journal_mode = WAL');
      native.pragma('synchronous = NORMAL');
    }
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(native) }), log });
  } else {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    });
    db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), log });
  }
  return {
    db,
    dialect,
    get queryCount() {
      return count;
    },
    close: () => db.destroy(),
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew; better-sqlite3 statements are
 * reusable, so keep the recent ones (they are only ever run one at a time
 * behind Kysely's connection mutex). Structure changes clear the cache.
 */
function withStatementCache(native: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => native.close(),
    prepare(sqlText: string) {
      const hit = cache.get(sqlText);
      if (hit) {
        // Re-insert to keep the map in least-recently-used order.
        cache.delete(sqlText);
        cache.set(sqlText, hit);
        return hit;
      }
      if (/^\s*(create|alter|drop)\b/i.test(sqlText)) cache.clear();
      const stmt = native.prepare(sqlText);
      cache.set(sqlText, stmt);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      return stmt;
    },
  };
}

/** Cheap liveness probe. */
export async function ping(db: Kdb): Promise<void> {
  await sql`select 1`.execute(db);
}

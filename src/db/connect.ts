import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import { DEFAULT_SQLITE_CACHE_SIZE } from '../core/config.js';
import type { DialectName } from './dialect.js';
import { withNamedStatements } from './pg-named.js';
import { countStatement } from './query-scope.js';
import type { Tables } from './tables.js';

const require = createRequire(import.meta.url);
let pgModule: typeof pg | null = null;

/** The PostgreSQL driver, loaded only when a PostgreSQL database is used (SQLite sites never pay for it). */
export function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = require('pg') as typeof pg;
    // int8 (count(*), bigint columns) as JS numbers; our values stay far below 2^53.
    pgModule.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
  }
  return pgModule;
}

export type Kdb = Kysely<Tables>;

export interface Database {
  db: Kdb;
  dialect: DialectName;
  /**
   * Number of SQL statements executed so far, by anyone (for query-budget tests). What one request
   * or tool call ran is its query scope (query-scope.ts).
   */
  readonly queryCount: number;
  /** PostgreSQL only: how to open a connection of its own on the same database and schema (LISTEN). */
  listenerConfig?: pg.ClientConfig;
  /** SQLite on a file only: the native handle (online backup API) and the file's path. */
  sqliteFile?: { native: SqliteDatabase.Database; path: string };
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** PostgreSQL schema to use as search_path (tests use a fresh one each). */
  schema?: string;
  poolSize?: number;
  /** SQLite: bytes of pages the connection caches (configuration `sqliteCacheSize`). */
  sqliteCacheSize?: number;
  /** PostgreSQL: longest wait for a connection (a new one, or a free one of a full pool), ms. */
  connectTimeoutMs?: number;
  /** PostgreSQL: longest run of one statement, ms (the server cancels it; the client gives up too). */
  statementTimeoutMs?: number;
}

/**
 * Bounds that keep a request from hanging on PostgreSQL (docs/operations.md#when-the-parts-fail): a
 * connection that cannot be made, or a pool whose connections are all taken, fails within the
 * connect timeout; a statement the server does not answer (a cut network, a stuck lock) within the
 * statement timeout, server side, with the client's own timer a little later for a server that
 * cannot answer at all.
 */
export const PG_CONNECT_TIMEOUT_MS = 5_000;
export const PG_STATEMENT_TIMEOUT_MS = 60_000;

export function dialectOf(url: string): DialectName {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new Error(`unsupported database URL: ${url.split(':')[0]}`);
}

export function connect(url: string, options: ConnectOptions = {}): Database {
  const dialect = dialectOf(url);
  let count = 0;
  // Every statement, answered or failed: the process-wide count, and the query scope of the work it runs for.
  const log = (event: LogEvent) => {
    count++;
    countStatement(event.queryDurationMillis);
  };
  let db: Kdb;
  let listenerConfig: pg.ClientConfig | undefined;
  let sqliteFile: Database['sqliteFile'];
  if (dialect === 'sqlite') {
    const file = url.slice('sqlite:'.length);
    const memory = file === ':memory:' || file === '';
    if (!memory) mkdirSync(dirname(file), { recursive: true });
    const native = new SqliteDatabase(memory ? ':memory:' : file);
    native.pragma('foreign_keys = ON');
    native.pragma('busy_timeout = 5000');
    // A negative cache size is in KiB.
    native.pragma(`cache_size = -${Math.ceil((options.sqliteCacheSize ?? DEFAULT_SQLITE_CACHE_SIZE) / 1024)}`);
    let optimizer: NodeJS.Timeout | undefined;
    if (!memory) {
      sqliteFile = { native, path: file };
      native.pragma('journal_mode = WAL');
      native.pragma('synchronous = NORMAL');
      // Planner statistics: without them SQLite cannot tell a selective condition (the entries of a
      // rare term) from a broad one and walks a whole list index. Gather what is missing at open and
      // refresh hourly, each run on a bounded sample (SQLite's recommended `PRAGMA optimize` use).
      native.pragma('analysis_limit = 400');
      native.pragma('optimize = 0x10002');
      optimizer = setInterval(() => native.pragma('optimize'), 60 * 60_000);
      optimizer.unref();
    }
    db = new Kysely<Tables>({
      dialect: new SqliteDialect({
        database: withStatementCache(native, () => clearInterval(optimizer)),
      }),
      log,
    });
  } else {
    listenerConfig = {
      connectionString: url,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    };
    const statementTimeout = options.statementTimeoutMs ?? PG_STATEMENT_TIMEOUT_MS;
    const pool = new (loadPg().Pool)({
      ...listenerConfig,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? PG_CONNECT_TIMEOUT_MS,
      statement_timeout: statementTimeout,
      query_timeout: statementTimeout + 5_000,
      keepAlive: true,
    });
    // An idle connection the server drops (restart, cut network) is an 'error' on the pool; unheard,
    // it would end the process. The pool discards that connection and makes a new one when next asked.
    pool.on('error', () => {});
    // A connection dropped while checked out (a query or transaction in flight) is an 'error' on its
    // client, which the pool does not listen to then: the query in flight already fails with it, so
    // the event only needs a listener, or it would end the process.
    pool.on('connect', (client) => client.on('error', () => {}));
    db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }), log });
  }
  return {
    db,
    dialect,
    listenerConfig,
    sqliteFile,
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
/** Stands in for a ROLLBACK statement after SQLite already rolled the transaction back. */
const NOTHING_TO_ROLL_BACK = {
  reader: false,
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
} as unknown as SqliteDatabase.Statement;

function withStatementCache(native: SqliteDatabase.Database, onClose: () => void) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      onClose();
      native.close();
    },
    prepare(sqlText: string) {
      // SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_NOMEM, SQLITE_IOERR);
      // the ROLLBACK Kysely then sends would fail with "no transaction is active" and hide the error
      // that ended it (a full disk would answer 500, not 507). There is nothing left to roll back.
      if (sqlText === 'rollback' && !native.inTransaction) return NOTHING_TO_ROLL_BACK;
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

import type { QueryResult, RawBuilder } from 'kysely';
import type pg from 'pg';
import type { Kdb } from './connect.js';

/**
 * Named (server-side prepared) statements for the hot reads on PostgreSQL.
 * The statements of `runShaped` are compiled once per shape; registering
 * their text here gives each a name, and every pooled client runs a named
 * text as a prepared statement: PostgreSQL parses and plans it once per
 * connection instead of on every request. Every pooled client's `query` also
 * runs in `pg`'s callback form (see `patch`), which leaves answers to die young.
 */
const names = new Map<string, string>();
let counter = 0;
const MAX_NAMES = 1_000;
const PATCHED = Symbol('cms.namedStatements');

/**
 * Give `text` a fresh name. A shape compiles again when its schema version
 * moves on, and its text may be the same while `table.*` now has other
 * columns: a fresh name means no connection reuses a plan of the old table.
 */
export function nameStatement(text: string): void {
  if (names.size >= MAX_NAMES && !names.has(text)) names.clear();
  names.set(text, `cms_${++counter}`);
}

/** Name `text` unless it has a name already (a statement whose text is fixed per table, not per schema version). */
export function ensureNamed(text: string): void {
  if (!names.has(text)) nameStatement(text);
}

/**
 * Run a statement whose text is fixed for what it reads (a table, a shape) and varies only in its
 * values: on PostgreSQL as a prepared statement, parsed and planned once per connection.
 */
export async function runNamed<R>(db: Kdb, query: RawBuilder<R>): Promise<QueryResult<R>> {
  const compiled = query.compile(db);
  ensureNamed(compiled.sql);
  return db.executeQuery(compiled);
}

type Query = (...args: unknown[]) => Promise<unknown>;
type Callback = (err: Error | null, result: unknown) => void;

/** A PostgreSQL "cached plan must not change result type": a table changed under a prepared statement. */
const isStalePlan = (err: unknown) =>
  (err as { code?: string }).code === '0A000' && /cached plan/.test((err as Error).message ?? '');

function patch(client: pg.PoolClient & { [PATCHED]?: true }): void {
  if (client[PATCHED]) return;
  client[PATCHED] = true;
  const query = client.query.bind(client) as Query;
  /**
   * Runs a query through `pg`'s callback form. Its promise form keeps each answer reachable long
   * enough that the young-generation collector copies and then promotes it (every list page's rows
   * went to the old generation, about 60 KB a query in a bare loop); the callback form leaves them
   * to die young. See docs/decisions.md, "pg queries run in callback form".
   */
  const run = (config: string | pg.QueryConfig, values?: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const done: Callback = (err, result) => (err ? reject(err) : resolve(result));
      if (values === undefined) query(config, done);
      else query(config, values, done);
    });
  (client as unknown as { query: Query }).query = async (text: unknown, values?: unknown, ...rest: unknown[]) => {
    // Anything but text with optional values (a query object, a cursor, a callback) goes to pg as given.
    if (typeof text !== 'string' || rest.length > 0 || !(values === undefined || Array.isArray(values))) {
      return query(text, values, ...rest);
    }
    const name = names.get(text);
    if (!name) return run(text, values);
    try {
      return await run({ name, text, values: values as unknown[] });
    } catch (err) {
      if (!isStalePlan(err)) throw err;
      // Another process changed the table under the plan: name the text anew and run it once more.
      // Inside a transaction PostgreSQL refuses the retry too (the transaction is aborted), as it
      // would have failed without names.
      if (names.get(text) === name) nameStatement(text);
      return run({ name: names.get(text), text, values: values as unknown[] });
    }
  };
}

/** The pool Kysely is given: every client it hands out runs named texts as prepared statements. */
export function withNamedStatements(pool: pg.Pool): pg.Pool {
  pool.on('connect', (client) => patch(client as pg.PoolClient));
  return pool;
}

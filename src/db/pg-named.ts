import type pg from 'pg';

/**
 * Named (server-side prepared) statements for the hot reads on PostgreSQL.
 * The statements of `runShaped` are compiled once per shape; registering
 * their text here gives each a name, and every pooled client runs a named
 * text as a prepared statement: PostgreSQL parses and plans it once per
 * connection instead of on every request.
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

type Query = (...args: unknown[]) => Promise<unknown>;

/** A PostgreSQL "cached plan must not change result type": a table changed under a prepared statement. */
const isStalePlan = (err: unknown) =>
  (err as { code?: string }).code === '0A000' && /cached plan/.test((err as Error).message ?? '');

function patch(client: pg.PoolClient & { [PATCHED]?: true }): void {
  if (client[PATCHED]) return;
  client[PATCHED] = true;
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = async (text: unknown, values?: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' && rest.length === 0 ? names.get(text) : undefined;
    if (!name) return query(text, values, ...rest);
    try {
      return await query({ name, text, values });
    } catch (err) {
      if (!isStalePlan(err)) throw err;
      // Another process changed the table under the plan: name the text anew and run it once more.
      // Inside a transaction PostgreSQL refuses the retry too (the transaction is aborted), as it
      // would have failed without names.
      if (names.get(text as string) === name) nameStatement(text as string);
      return query({ name: names.get(text as string), text, values });
    }
  };
}

/** The pool Kysely is given: every client it hands out runs named texts as prepared statements. */
export function withNamedStatements(pool: pg.Pool): pg.Pool {
  pool.on('connect', (client) => patch(client as pg.PoolClient));
  return pool;
}

import { CompiledQuery } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { nameStatement } from '../../db/pg-named.js';

/**
 * Read statements compiled once per shape. Building and compiling a query
 * with Kysely costs more CPU than running it on either engine (a list page's
 * statement: about a tenth of a millisecond of operation-node work and the
 * garbage it leaves), so the hot reads build theirs with *markers* in place of
 * the values that change per request, compile once, and bind the values at
 * execution. The key must name everything that shapes the SQL (collection,
 * schema version, caller class, order, which conditions are present); values
 * only ever reach the statement as parameters.
 */
const MARK = '\u0000cms-param:';
const compiled = new Map<string, CompiledQuery>();
/** Bounded: shapes are few per collection, but schema versions move on. */
const MAX_SHAPES = 500;

/** A placeholder value for `name`, bound by `runShaped`. NUL never reaches a stored value (refused at the door). */
export const param = (name: string): string => `${MARK}${name}`;

export async function runShaped<R>(
  db: Kdb,
  key: string,
  build: () => { compile(): CompiledQuery },
  values: Record<string, unknown>,
): Promise<R[]> {
  let statement = compiled.get(key);
  if (!statement) {
    statement = build().compile();
    nameStatement(statement.sql);
    if (compiled.size >= MAX_SHAPES) compiled.clear();
    compiled.set(key, statement);
  }
  const parameters = statement.parameters.map((p) => {
    if (typeof p !== 'string' || !p.startsWith(MARK)) return p;
    const name = p.slice(MARK.length);
    if (!Object.hasOwn(values, name)) throw new Error(`No value bound for statement parameter "${name}"`);
    return values[name];
  });
  const { rows } = await db.executeQuery<R>(CompiledQuery.raw(statement.sql, parameters));
  return rows;
}

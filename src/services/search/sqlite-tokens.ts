import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import type { DocTokens } from './head-keys.js';
import { TIERS, type Tier, type Tokenizer } from './model.js';

/**
 * Tokens as FTS5 makes them, for the head lists: SQLite offers no function
 * that tokenizes text, so texts go through a contentless FTS5 table of the
 * connection's temporary schema with the index's tokenizer, and its
 * `fts5vocab` instance table lists every token with its column and offset.
 * The table is emptied after each use ('delete-all'); nothing reaches the
 * database file. About 0.2 ms for a 1 KB document.
 */

export interface TokenSource {
  rowid: number;
  entry: string;
  locale: string;
  live: boolean;
  current: boolean;
  text: Record<Tier, string>;
}

const scratch = (tokenizer: Tokenizer) => (tokenizer === 'unicode61' ? '_cms_tok_unicode61' : '_cms_tok_porter');
/** Scratch tables believed to exist on the connection (DDL clears its statement cache: not run per use). */
const created = new Set<string>();

async function createScratch(db: Kdb, name: string, tokenize: string): Promise<void> {
  await sql`create virtual table if not exists temp.${sql.id(name)} using fts5(a, b, c, d,
    tokenize=${sql.lit(tokenize)}, content='', contentless_delete=1)`.execute(db);
  await sql`create virtual table if not exists temp.${sql.id(`${name}_i`)}
    using fts5vocab(temp, ${sql.id(name)}, instance)`.execute(db);
  created.add(name);
}

const isMissing = (err: unknown) => /no such table/i.test((err as Error).message ?? '');

interface Instance {
  term: string;
  doc: number;
  col: Tier;
  offset: number;
}

async function tokenize(
  db: Kdb,
  tokenizer: Tokenizer,
  tokenizeSpec: string,
  rows: Array<{ rowid: number; text: Record<Tier, string> }>,
): Promise<Instance[]> {
  if (!rows.length) return [];
  const name = scratch(tokenizer);
  if (!created.has(name)) await createScratch(db, name, tokenizeSpec);
  try {
    return await run(db, name, rows);
  } catch (err) {
    // Created inside a transaction that rolled back: the table is gone, the flag was not.
    if (!isMissing(err)) throw err;
    await createScratch(db, name, tokenizeSpec);
    return run(db, name, rows);
  }
}

async function run(db: Kdb, name: string, rows: Array<{ rowid: number; text: Record<Tier, string> }>) {
  const t = sql.id(name);
  try {
    for (let i = 0; i < rows.length; i += 500) {
      const part = rows.slice(i, i + 500);
      await sql`insert into temp.${t} (rowid, a, b, c, d) values ${sql.join(
        part.map((r) => sql`(${r.rowid}, ${r.text.a}, ${r.text.b}, ${r.text.c}, ${r.text.d})`),
      )}`.execute(db);
    }
    const { rows: found } = await sql<Instance>`select term, doc, col, offset from temp.${sql.id(`${name}_i`)}`.execute(
      db,
    );
    return found;
  } finally {
    await sql`insert into temp.${t} (${t}) values ('delete-all')`.execute(db).catch((err) => {
      if (!isMissing(err)) throw err;
    });
  }
}

/** Documents' tokens in index order, with their length (tokens in every column). */
export async function documentTokens(
  db: Kdb,
  tokenizer: Tokenizer,
  tokenizeSpec: string,
  docs: TokenSource[],
): Promise<DocTokens[]> {
  const found = await tokenize(db, tokenizer, tokenizeSpec, docs);
  const byDoc = new Map<number, Instance[]>();
  for (const i of found) {
    const doc = Number(i.doc);
    const list = byDoc.get(doc);
    if (list) list.push(i);
    else byDoc.set(doc, [i]);
  }
  const order = (x: Instance, y: Instance) =>
    TIERS.indexOf(x.col) - TIERS.indexOf(y.col) || Number(x.offset) - Number(y.offset);
  return docs.map((d) => {
    const list = (byDoc.get(d.rowid) ?? []).sort(order);
    return {
      doc: d.rowid,
      entry: d.entry,
      locale: d.locale,
      live: d.live,
      current: d.current,
      length: list.length,
      terms: list.map((i) => i.term),
      tiers: list.map((i) => i.col),
      positions: list.map((i) => Number(i.offset)),
      adjacency: 'tier' as const,
    };
  });
}

/** The terms FTS5 makes of a text, in order. */
export async function textTerms(db: Kdb, tokenizer: Tokenizer, tokenizeSpec: string, text: string): Promise<string[]> {
  const found = await tokenize(db, tokenizer, tokenizeSpec, [{ rowid: 1, text: { a: text, b: '', c: '', d: '' } }]);
  return found.sort((x, y) => Number(x.offset) - Number(y.offset)).map((i) => i.term);
}

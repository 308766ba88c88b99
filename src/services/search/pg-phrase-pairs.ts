import { type RawBuilder, sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { assertIndexTable } from './engine.js';
import { parseTsvector } from './engine-postgres-heads.js';
import type { DocTokens } from './head-keys.js';
import type { HeadSettings } from './heads.js';
import { forWords, type ParsedQuery } from './query.js';

/**
 * Phrase pairs (PostgreSQL word indexes): for every document, the adjacent
 * pairs of its *very common* words, as 32-bit hashes under GIN. GIN has no
 * positions, so a phrase of two words that are each in tens of thousands of
 * entries makes PostgreSQL fetch every entry holding both to check where they
 * stand — about 1.6 µs a row, 30 ms and more for a phrase found in a few
 * hundred entries. With the pairs, only entries holding the pair are fetched
 * (and checked as before; a hash shared by two pairs only adds candidates).
 *
 * Very common: found in at least `PAIR_WORD_FACTOR × searchHeadThreshold`
 * documents when the index was built (the words are stored with the index, so
 * writes and queries agree on them). A phrase with a less common word costs
 * the engine at most that many rows, so it needs no pair. SQLite's FTS5 keeps
 * positions in its index and answers such phrases without this.
 *
 * Tables, per index `<t>`: `<t>_pwords` (the very common words) and
 * `<t>_pairs` (doc, hashes), filled by the head lists' ranking phase and kept
 * by entry writes; searches use them once the lists are ready.
 */

/** Very common words are found in this many times more documents than a head list's key. */
export const PAIR_WORD_FACTOR = 8;

const base = (t: string) => assertIndexTable(t);
const wordsOf = (t: string) => sql.id(`${base(t)}_pwords`);
const pairsOf = (t: string) => sql.id(`${base(t)}_pairs`);
/** Rows per multi-row insert (two parameters each). */
const ROWS_PER_STATEMENT = 2_000;

/** Per-process: a table's very common words never change. */
const wordSets = new Map<string, Set<string>>();

/** FNV-1a over the UTF-16 code units of `first second`, as a signed 32-bit integer (PostgreSQL's int4). */
export function pairHash(first: string, second: string): number {
  const text = `${first} ${second}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

export async function createPairTables(trx: Kdb, table: string): Promise<void> {
  await sql`create table ${wordsOf(table)} (word text primary key)`.execute(trx);
  await sql`create table ${pairsOf(table)} (doc bigint primary key, pairs int4[] not null)`.execute(trx);
  // A short pending list, as for the word index: entry writes stay cheap, searches scan little.
  await sql`create index ${sql.id(`${base(table)}_pairs_gin`)} on ${pairsOf(table)} using gin (pairs)
    with (gin_pending_list_limit = 512)`.execute(trx);
}

export async function dropPairTables(trx: Kdb, table: string): Promise<void> {
  await sql`drop table if exists ${pairsOf(table)}`.execute(trx);
  await sql`drop table if exists ${wordsOf(table)}`.execute(trx);
  wordSets.delete(table);
}

async function veryCommon(db: Kdb, table: string): Promise<Set<string>> {
  const known = wordSets.get(table);
  if (known) return known;
  const { rows } = await sql<{ word: string }>`select word from ${wordsOf(table)}`.execute(db);
  const set = new Set(rows.map((r) => r.word));
  wordSets.set(table, set);
  return set;
}

/** Store the very common words of a build, from its document frequencies. */
export async function choosePairWords(
  trx: Kdb,
  table: string,
  terms: Map<string, number>,
  settings: HeadSettings,
): Promise<void> {
  const least = PAIR_WORD_FACTOR * settings.threshold;
  const words = [...terms].filter(([, df]) => df >= least).map(([w]) => w);
  for (let i = 0; i < words.length; i += ROWS_PER_STATEMENT) {
    const part = words.slice(i, i + ROWS_PER_STATEMENT);
    await sql`insert into ${wordsOf(table)} (word) values ${sql.join(part.map((w) => sql`(${w})`))}
      on conflict do nothing`.execute(trx);
  }
  wordSets.delete(table);
}

/** Hashes of a document's adjacent pairs of very common words (positions as PostgreSQL stored them). */
function docPairs(doc: DocTokens, words: Set<string>): number[] {
  // Every very common word at each position (several share one past PostgreSQL's last position).
  const at = new Map<number, string[]>();
  for (let i = 0; i < doc.terms.length; i++) {
    if (!words.has(doc.terms[i])) continue;
    const list = at.get(doc.positions[i]);
    if (list) list.push(doc.terms[i]);
    else at.set(doc.positions[i], [doc.terms[i]]);
  }
  const out = new Set<number>();
  for (const [p, firsts] of at) {
    const seconds = at.get(p + 1);
    if (seconds) for (const a of firsts) for (const b of seconds) out.add(pairHash(a, b));
  }
  return [...out];
}

/** Add documents' pairs (a document listed twice, by a build step and an entry write, keeps its row). */
export async function addPairs(trx: Kdb, table: string, docs: DocTokens[]): Promise<void> {
  const words = await veryCommon(trx, table);
  if (!words.size) return;
  const rows = docs.map((d) => [d.doc, docPairs(d, words)] as const).filter(([, p]) => p.length);
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + ROWS_PER_STATEMENT);
    await sql`insert into ${pairsOf(table)} (doc, pairs)
      values ${sql.join(part.map(([doc, p]) => sql`(${doc}, ${`{${p.join(',')}}`}::int4[])`))}
      on conflict (doc) do nothing`.execute(trx);
  }
}

export async function removePairs(trx: Kdb, table: string, docs: number[]): Promise<void> {
  if (docs.length) await sql`delete from ${pairsOf(table)} where doc = any(${docs}::bigint[])`.execute(trx);
}

/**
 * Hashes of the pairs of very common words that every match of the query
 * holds: those of the phrases the query requires (an AND group of one phrase,
 * not negated). Empty when there are none, and the engine answers alone.
 */
export async function requiredPairs(
  db: Kdb,
  table: string,
  cfg: RawBuilder<unknown>,
  query: ParsedQuery,
): Promise<number[]> {
  const q = forWords(query);
  if (!q) return [];
  // A prefix phrase's last word is not a term: its pairs end before it.
  const texts = q.groups
    .filter((g) => g.length === 1)
    .map(([u]) => (u.prefix ? u.words.slice(0, -1) : u.words))
    .filter((w) => w.length >= 2)
    .map((w) => w.join(' '));
  if (!texts.length) return [];
  const words = await veryCommon(db, table);
  if (!words.size) return [];
  const { rows } = await sql<{ v: string }>`
    select to_tsvector(${cfg}::regconfig, t)::text as v from unnest(${texts}::text[]) as t`.execute(db);
  const out = new Set<number>();
  for (const { v } of rows) {
    // The query's lexemes by position; a position holding more than one (a dictionary's variants)
    // matches either, so it gives no required pair.
    const at = new Map<number, string | null>();
    for (const l of parseTsvector(v)) {
      for (const p of l.positions) at.set(p, at.has(p) ? null : l.lexeme);
    }
    for (const [p, a] of at) {
      const b = at.get(p + 1);
      if (a && b && words.has(a) && words.has(b)) out.add(pairHash(a, b));
    }
  }
  return [...out];
}

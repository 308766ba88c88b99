import { type RawBuilder, sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { assertIndexTable } from './engine.js';
import { queryKey, type TierCounts } from './head-keys.js';
import { type HeadCorpus, type HeadEngine, spread } from './heads.js';
import type { Tier, Tokenizer } from './model.js';
import { FTS_TOKENIZE } from './sqlite-tokenizers.js';
import { documentTokens, textTerms } from './sqlite-tokens.js';

/**
 * Head lists on SQLite (see heads.ts): FTS5's own bm25, computed from stored
 * counts the way `bm25()` computes it (fts5_aux.c): for one phrase,
 * idf × f(k1 + 1) / (f + k1(1 − b + b·D/avgdl)), f the weighted occurrences,
 * D the row's tokens in every column, avgdl and the row count from the
 * index's averages record, idf from the documents holding the term.
 */
const K1 = 1.2;
const B = 0.75;
/** FTS5's idf floor for phrases found in more than half of the rows. */
const MIN_IDF = 1e-6;
/** FTS5's record of row count and per-column token totals, in `<t>_data`. */
const AVERAGES_ID = 1;

const id = (t: string) => sql.id(assertIndexTable(t));
const docsOf = (t: string) => sql.id(`${assertIndexTable(t)}_docs`);
const textOf = (t: string) => sql.id(`${assertIndexTable(t)}_text`);
const dataOf = (t: string) => sql.id(`${assertIndexTable(t)}_data`);
export const vocabOf = (t: string) => sql.id(`${assertIndexTable(t)}_vocab`);

/** SQLite's variable-length integers (as FTS5 writes them): big-endian 7-bit groups, a 9th byte of 8 bits. */
export function readVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < buf.length) {
    let v = 0;
    let n = 0;
    for (;;) {
      const byte = buf[i++];
      if (n === 8) {
        v = v * 256 + byte;
        break;
      }
      v = v * 128 + (byte & 0x7f);
      n++;
      if (!(byte & 0x80) || i >= buf.length) break;
    }
    out.push(v);
  }
  return out;
}

/** Rows and average tokens per row, as bm25 reads them. */
async function averages(db: Kdb, table: string): Promise<{ rows: number; avgLength: number }> {
  const { rows } = await sql<{
    block: Uint8Array;
  }>`select block from ${dataOf(table)} where id = ${AVERAGES_ID}`.execute(db);
  if (!rows[0]) return { rows: 0, avgLength: 0 };
  // An index that never held a row may keep an empty record.
  const [count = 0, ...columns] = readVarints(rows[0].block);
  const tokens = columns.reduce((a, b) => a + b, 0);
  return { rows: count, avgLength: count ? tokens / count : 0 };
}

function bm25(c: HeadCorpus, w: Record<Tier, number>, tf: TierCounts, length: number): number {
  const f = w.a * tf[0] + w.b * tf[1] + w.c * tf[2] + w.d * tf[3];
  return c.idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * length) / c.avgLength)));
}

export const sqliteHeads: HeadEngine = {
  score: bm25,

  async corpus(db, table, keyFrequency) {
    const { rows, avgLength } = await averages(db, table);
    // The document frequency counted when the lists were built: FTS5 counts it by walking every
    // match (its vocabulary table too), the very cost lists avoid. It scales all of a query's scores
    // alike, so the order is bm25's; the values drift from bm25()'s as entries are written.
    const n = Math.min(keyFrequency, rows);
    const idf = Math.log((rows - n + 0.5) / (n + 0.5));
    return { avgLength, idf: idf <= 0 ? MIN_IDF : idf };
  },

  async documents(db, table) {
    return (await averages(db, table)).rows;
  },

  async averageLength(db, table) {
    return (await averages(db, table)).avgLength;
  },

  async frequencies(db, table) {
    const { rows } = await averages(db, table);
    const found = await sql<{ term: string; doc: number }>`select term, doc from ${vocabOf(table)}`.execute(db);
    return { rows, terms: new Map(found.rows.map((r) => [r.term, Number(r.doc)])) };
  },

  tokensAfter(db, table, tokenizer, after, limit) {
    return tokensWhere(db, table, tokenizer, sql`d.rowid > ${after} order by d.rowid limit ${limit}`);
  },

  async sample(db, table, tokenizer, count) {
    const { rows } = await sql<{ lo: number | null; hi: number | null }>`
      select min(rowid) as lo, max(rowid) as hi from ${docsOf(table)}`.execute(db);
    const ids = spread(Number(rows[0]?.lo ?? 1), Number(rows[0]?.hi ?? 0), count);
    return ids.length ? tokensWhere(db, table, tokenizer, sql`d.rowid in (${sql.join(ids)})`) : [];
  },

  async queryKey(db, tokenizer, words, prefix) {
    const key = queryKey(await textTerms(db, tokenizer, FTS_TOKENIZE[tokenizer], words.join(' ')), prefix);
    return key === null ? null : sql`${key}`;
  },
};

async function tokensWhere(db: Kdb, table: string, tokenizer: Tokenizer, where: RawBuilder<unknown>) {
  const { rows } = await sql<{
    rowid: number;
    entry_id: string;
    locale: string;
    live: number;
    current: number;
    a: string;
    b: string;
    c: string;
    d: string;
  }>`select d.rowid as rowid, d.entry_id, d.locale, d.live, d.current, x.a, x.b, x.c, x.d
    from ${docsOf(table)} d join ${textOf(table)} x on x.rowid = d.rowid where ${where}`.execute(db);
  return documentTokens(
    db,
    tokenizer,
    FTS_TOKENIZE[tokenizer],
    rows.map((r) => ({
      rowid: Number(r.rowid),
      entry: r.entry_id,
      locale: r.locale,
      live: Number(r.live) === 1,
      current: Number(r.current) === 1,
      text: { a: r.a, b: r.b, c: r.c, d: r.d },
    })),
  );
}

/** The vocabulary table of an index: FTS5's document frequency of each term. */
export async function createVocab(trx: Kdb, table: string): Promise<void> {
  await sql`create virtual table ${vocabOf(table)} using fts5vocab(${id(table)}, row)`.execute(trx);
}

import { type RawBuilder, sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import { assertIndexTable } from './engine.js';
import { type DocTokens, isPairKey, keyCounts, prefixFrequencies, type TierCounts } from './head-keys.js';
import { TIERS, type Tier, type Tokenizer } from './model.js';

/**
 * Head lists: for every common key of an index (a term, or a 3 or 4 character
 * prefix, found in at least `threshold` documents when the index was built),
 * the documents that score best for that key alone, with the counts the
 * engine's score is computed from. A one-word or one-prefix search on a common
 * key ranks its list (a few hundred rows read through a b-tree, heads-rank.ts)
 * instead of every match, so its cost no longer grows with the number of
 * entries holding the word; rare keys are ranked by the engine as before.
 *
 * A list holds every document whose score for the key, computed with the
 * weights (and on SQLite the average length) of the build, reaches the list's
 * floor: so its order is the engine's order, and paging ends where the list
 * does, as the ranking window ends broad engine searches. A build samples the
 * documents to set first floors that leave about 1.5 × `size` documents per
 * list, then visits every document; entry writes add their documents where
 * they reach the floor; a list past twice `size` is cut back to its best
 * `size` (its floor raised) at the end of a build and by the background worker.
 *
 * Tables, per index `<t>`: `<t>_hkeys` (the common keys), `<t>_hfloors`
 * (floor per key and locale), `<t>_heads` (the lists) and `<t>_hmeta` (the
 * build's weights and sizes; `ready` once every document was visited).
 */

/** The engine's relevance of one key, from stored counts (bm25 on SQLite, single-term ts_rank_cd on PostgreSQL). */
export interface HeadScoring {
  score(corpus: HeadCorpus, weights: Record<Tier, number>, tf: TierCounts, length: number): number;
  /** What a query's scores need besides the counts: the live average length and the key's idf (SQLite). */
  corpus(db: Kdb, table: string, keyFrequency: number): Promise<HeadCorpus>;
  /** Average document length of the index (SQLite bm25; 0 where the score does not use it). */
  averageLength(db: Kdb, table: string): Promise<number>;
  /** Documents in the index, and the document frequency of every term. */
  frequencies(db: Kdb, table: string): Promise<{ rows: number; terms: Map<string, number> }>;
  /** Documents in the index. */
  documents(db: Kdb, table: string): Promise<number>;
}

/** What a build and a query need of an engine beyond scoring. */
export interface HeadEngine extends HeadScoring {
  /** Tokens of the next `limit` documents after handle `after`, in handle order (a build step). */
  tokensAfter(db: Kdb, table: string, tokenizer: Tokenizer, after: number, limit: number): Promise<DocTokens[]>;
  /** Tokens of about `count` documents spread evenly over the index. */
  sample(db: Kdb, table: string, tokenizer: Tokenizer, count: number): Promise<DocTokens[]>;
  /**
   * The key of a one-unit query (a word, `word*` when `prefix`, or a two-word phrase), as SQL a
   * statement can compare with: the words as the index's tokenizer makes them terms (queryKey,
   * head-keys.ts); null when the unit has none.
   */
  queryKey(db: Kdb, tokenizer: Tokenizer, words: string[], prefix: boolean): Promise<RawBuilder<unknown> | null>;
  /** Postings an engine keeps beside the lists, built in the same steps (PostgreSQL: pg-phrase-pairs.ts). */
  postings?: {
    /** A build's first ranking step: choose what to keep, from the document frequencies. */
    start(trx: Kdb, table: string, terms: Map<string, number>, settings: HeadSettings): Promise<void>;
    /** Add documents (a ranking step; entry writes add theirs through the engine). */
    add(trx: Kdb, table: string, docs: DocTokens[]): Promise<void>;
  };
}

export interface HeadCorpus {
  avgLength: number;
  idf: number;
}

export interface HeadMeta {
  weights: Record<Tier, number>;
  avgLength: number;
  /** Documents a list keeps when it is cut back. */
  size: number;
  /** Documents a key must be found in (at the build) to have a list. */
  threshold: number;
  /** Documents in the index when the keys were chosen. */
  documents: number;
  ready: boolean;
}

export interface HeadSettings {
  size: number;
  threshold: number;
}

/** A membership score: the build's corpus, without idf (a constant for one key). */
const BUILD_IDF = 1;
/** Documents a build samples to set the first floors. */
const SAMPLE_DOCS = 5_000;
/** What the first floors aim at, in list sizes (the sample's estimate is noisy both ways). */
const FIRST_FILL = 1.5;
/** Rows per multi-row statement: below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const ROWS_PER_STATEMENT = 2_000;
/** Bits of a list row's `seen`: which readers may find the document. */
export const SEEN_LIVE = 1;
export const SEEN_CURRENT = 2;
/** Counts are stored as smallint: a tier with more occurrences of a key counts this many. */
const MAX_COUNT = 32_767;

interface HeadRow {
  key: string;
  locale: string;
  doc: number;
  entry: string;
  live: boolean;
  current: boolean;
  tf: TierCounts;
  length: number;
  /** Membership score: the build's weights (and average length), no idf. */
  score: number;
}

const base = (t: string) => assertIndexTable(t);
export const keysOf = (t: string) => sql.id(`${base(t)}_hkeys`);
export const floorsOf = (t: string) => sql.id(`${base(t)}_hfloors`);
export const headsOf = (t: string) => sql.id(`${base(t)}_heads`);
const metaOf = (t: string) => sql.id(`${base(t)}_hmeta`);
const listId = (key: string, locale: string) => `${key}\u0000${locale}`;

/** About `count` handles spread evenly from `lo` to `hi` (every one when there are fewer). */
export function spread(lo: number, hi: number, count: number): number[] {
  if (hi < lo) return [];
  if (hi - lo + 1 <= count) return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const step = (hi - lo) / (count - 1);
  return [...new Set(Array.from({ length: count }, (_, i) => Math.round(lo + i * step)))];
}

function chunks<T>(list: T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export async function createHeadTables(trx: Kdb, dialect: DialectName, table: string): Promise<void> {
  const pg = dialect === 'postgres';
  const organised = sql.raw(pg ? '' : 'without rowid');
  const real = sql.raw(pg ? 'double precision' : 'real');
  const big = sql.raw(pg ? 'bigint' : 'integer');
  await sql`create table ${keysOf(table)} (key text primary key, df integer not null) ${organised}`.execute(trx);
  await sql`create table ${floorsOf(table)} (key text not null, locale text not null, floor ${real} not null,
    primary key (key, locale)) ${organised}`.execute(trx);
  // Kept narrow (millions of rows on a large site): `seen` holds the visibility flags (SEEN_LIVE,
  // SEEN_CURRENT), the counts are per tier, `score` is the membership score (build weights, single
  // precision on both engines) that floors compare with.
  await sql`create table ${headsOf(table)} (key text not null, locale text not null, doc ${big} not null,
    entry text not null, seen smallint not null,
    ta smallint not null, tb smallint not null, tc smallint not null, td smallint not null, len integer not null,
    score real not null, primary key (key, locale, doc)) ${organised}`.execute(trx);
  // A rewritten or deleted document's rows are found by handle (removeDocuments): a few pages of this
  // index, where probing the lists by the keys of its old tokens reads one cold page per key.
  await sql`create index ${sql.id(`${base(table)}_heads_doc`)} on ${headsOf(table)} (doc)`.execute(trx);
  await sql`create table ${metaOf(table)} (id integer primary key, weights text not null, avg_length ${real} not null,
    size integer not null, threshold integer not null, documents integer not null, ready smallint not null)`.execute(
    trx,
  );
}

export async function dropHeadTables(trx: Kdb, table: string): Promise<void> {
  for (const t of [headsOf(table), floorsOf(table), keysOf(table), metaOf(table)]) {
    await sql`drop table if exists ${t}`.execute(trx);
  }
  metas.delete(table);
  keySets.delete(table);
  floorCache.delete(table);
}

/**
 * Per-process knowledge of a table, safe to keep: its metadata once ready and
 * its common keys never change; its floors only rise, and a floor known lower
 * than it is only lets a write list a document a query then passes over.
 */
const metas = new Map<string, HeadMeta>();
const keySets = new Map<string, Set<string>>();
const floorCache = new Map<string, Map<string, number>>();

export async function readHeadMeta(db: Kdb, table: string): Promise<HeadMeta | null> {
  const known = metas.get(table);
  if (known) return known;
  const { rows } = await sql<{
    weights: string;
    avg_length: number;
    size: number;
    threshold: number;
    documents: number;
    ready: number;
  }>`select weights, avg_length, size, threshold, documents, ready from ${metaOf(table)} where id = 1`.execute(db);
  const r = rows[0];
  if (!r) return null;
  const meta: HeadMeta = {
    weights: JSON.parse(r.weights) as Record<Tier, number>,
    avgLength: Number(r.avg_length),
    size: Number(r.size),
    threshold: Number(r.threshold),
    documents: Number(r.documents),
    ready: Number(r.ready) === 1,
  };
  if (meta.ready) metas.set(table, meta);
  return meta;
}

async function commonKeys(db: Kdb, table: string): Promise<Set<string>> {
  const known = keySets.get(table);
  if (known) return known;
  const { rows } = await sql<{ key: string }>`select key from ${keysOf(table)}`.execute(db);
  const set = new Set(rows.map((r) => r.key));
  keySets.set(table, set);
  return set;
}

async function floorsOfTable(db: Kdb, table: string): Promise<Map<string, number>> {
  const known = floorCache.get(table);
  if (known) return known;
  const { rows } = await sql<{ key: string; locale: string; floor: number }>`
    select key, locale, floor from ${floorsOf(table)}`.execute(db);
  const map = new Map(rows.map((r) => [listId(r.key, r.locale), Number(r.floor)]));
  floorCache.set(table, map);
  return map;
}

/** Raise floors (or set a key's first one in a locale), in key order: writers on PostgreSQL lock them alike. */
async function raiseFloors(
  trx: Kdb,
  dialect: DialectName,
  table: string,
  floors: Array<{ key: string; locale: string; floor: number }>,
): Promise<void> {
  const sorted = [...floors].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.locale < y.locale ? -1 : 1));
  const larger = sql.raw(dialect === 'postgres' ? 'greatest' : 'max');
  for (const part of chunks(sorted)) {
    await sql`insert into ${floorsOf(table)} as f (key, locale, floor)
      values ${sql.join(part.map((c) => sql`(${c.key}, ${c.locale}, ${c.floor})`))}
      on conflict (key, locale) do update set floor = ${larger}(f.floor, excluded.floor)`.execute(trx);
  }
  const cache = await floorsOfTable(trx, table);
  for (const f of floors) {
    const id = listId(f.key, f.locale);
    cache.set(id, Math.max(cache.get(id) ?? 0, f.floor));
  }
}

/**
 * Membership score of a document for a key under the build's weights, in
 * single precision as the lists store it (floors come from these too, so a
 * stored score and a floor compare exactly).
 */
function impactOf(scoring: HeadScoring, meta: HeadMeta, tf: TierCounts, length: number): number {
  return Math.fround(scoring.score({ avgLength: meta.avgLength, idf: BUILD_IDF }, meta.weights, tf, length));
}

/**
 * First step of a list build: choose the common keys (terms found in at least
 * `threshold` documents, prefixes whose terms together are, pairs a sample of
 * the documents says are), store the build's weights and set each list's
 * first floor from the sample, so the steps that then add every document
 * (`addDocuments`) write about the lists' final rows rather than every match
 * of a common word. Returns how many keys were chosen.
 */
export async function startHeads(
  trx: Kdb,
  dialect: DialectName,
  table: string,
  engine: HeadEngine,
  tokenizer: Tokenizer,
  weights: Record<Tier, number>,
  settings: HeadSettings,
): Promise<number> {
  const { rows, terms } = await engine.frequencies(trx, table);
  await engine.postings?.start(trx, table, terms, settings);
  const sample = await engine.sample(trx, table, tokenizer, SAMPLE_DOCS);
  const share = rows ? Math.min(1, sample.length / rows) : 1;
  const common: Array<[string, number]> = [];
  for (const [term, df] of terms) if (df >= settings.threshold) common.push([term, df]);
  for (const [key, df] of prefixFrequencies(terms, rows)) if (df >= settings.threshold) common.push([key, df]);
  // A pair is only as common as its rarer word: its words must have lists too (keyCounts relies on it).
  const words = new Set(common.map(([k]) => k));
  for (const [key, seen] of samplePairs(sample)) {
    const df = Math.round(seen / share);
    const [first, second] = key.split(' ');
    if (df >= settings.threshold && words.has(first) && words.has(second)) common.push([key, df]);
  }
  common.sort((x, y) => (x[0] < y[0] ? -1 : 1));
  for (const part of chunks(common)) {
    await sql`insert into ${keysOf(table)} (key, df) values ${sql.join(part.map(([k, df]) => sql`(${k}, ${df})`))}
      on conflict (key) do nothing`.execute(trx);
  }
  const meta: HeadMeta = {
    weights,
    avgLength: await engine.averageLength(trx, table),
    size: settings.size,
    threshold: settings.threshold,
    documents: rows,
    ready: false,
  };
  await sql`insert into ${metaOf(table)} (id, weights, avg_length, size, threshold, documents, ready)
    values (1, ${JSON.stringify(weights)}, ${meta.avgLength}, ${meta.size}, ${meta.threshold}, ${rows}, 0)`.execute(
    trx,
  );
  if (common.length) await sampleFloors(trx, dialect, table, engine, meta, sample, share);
  return common.length;
}

/** Sampled documents holding each pair (pairs are not in the engine's vocabulary). */
function samplePairs(sample: DocTokens[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of sample) {
    for (const key of keyCounts(d).keys()) if (isPairKey(key)) out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/**
 * First floors from the sample: the score of a list's `FIRST_FILL × size ×
 * sample share`-th best sampled document (its `size`-th when the sample is
 * every document). A floor set too high only makes a list shorter: whatever
 * reaches it is listed.
 */
async function sampleFloors(
  trx: Kdb,
  dialect: DialectName,
  table: string,
  engine: HeadEngine,
  meta: HeadMeta,
  docs: DocTokens[],
  share: number,
): Promise<void> {
  const keys = await commonKeys(trx, table);
  const rank = Math.max(1, Math.ceil(share >= 1 ? meta.size : FIRST_FILL * meta.size * share));
  const scores = new Map<string, { key: string; locale: string; list: number[] }>();
  for (const d of docs) {
    for (const [key, tf] of keyCounts(d, keys)) {
      const id = listId(key, d.locale);
      const entry = scores.get(id) ?? { key, locale: d.locale, list: [] };
      entry.list.push(impactOf(engine, meta, tf, d.length));
      scores.set(id, entry);
    }
  }
  const floors: Array<{ key: string; locale: string; floor: number }> = [];
  for (const { key, locale, list } of scores.values()) {
    if (list.length < rank) continue;
    list.sort((x, y) => y - x);
    floors.push({ key, locale, floor: list[rank - 1] });
  }
  await raiseFloors(trx, dialect, table, floors);
}

/**
 * Whether a table's lists were chosen with other weights than `weights`: a
 * weight change reorders results at once (queries score with the current
 * weights) but which entries are listed follows the old ones until a rebuild.
 * False for a table without lists.
 */
export async function headsStale(db: Kdb, table: string, weights: Record<Tier, number>): Promise<boolean> {
  const meta = await readHeadMeta(db, table);
  if (!meta || TIERS.every((t) => meta.weights[t] === weights[t])) return false;
  return (await commonKeys(db, table)).size > 0;
}

/**
 * Whether an index grew past the lists chosen when it was built: twice the
 * documents it had then, and enough for a key to reach the threshold. Words
 * that became common since have no list until a rebuild chooses again.
 */
export async function headsOutgrown(db: Kdb, table: string, scoring: HeadScoring): Promise<boolean> {
  const meta = await readHeadMeta(db, table);
  if (!meta?.ready) return false;
  const now = await scoring.documents(db, table);
  return now >= meta.threshold && now > 2 * meta.documents;
}

/** The last step of a list build: lists cut back, then searches may use them. */
export async function finishHeads(trx: Kdb, dialect: DialectName, table: string): Promise<void> {
  // The sampled floors aimed above `size`: lists start at their best `size`, to grow by writes.
  await trimHeads(trx, dialect, table, 1);
  await sql`update ${metaOf(table)} set ready = 1 where id = 1`.execute(trx);
}

/**
 * Cut back every list of a table that holds more than `over` times its size
 * to its best `size` (ties with the last one kept), raising its floor to that
 * last one: the build ends with `over` 1, the worker uses 2.
 */
export async function trimHeads(trx: Kdb, dialect: DialectName, table: string, over = 2): Promise<void> {
  const meta = await readHeadMeta(trx, table);
  if (!meta) return;
  const { rows } = await sql<{ key: string; locale: string; score: number }>`
    select key, locale, score from (
      select key, locale, score,
        row_number() over (partition by key, locale order by score desc) as r,
        count(*) over (partition by key, locale) as n
      from ${headsOf(table)}) x
    where r = ${meta.size} and n > ${over * meta.size}`.execute(trx);
  if (!rows.length) return;
  // PostgreSQL prints a real in its shortest form: back to the exact single-precision value.
  await raiseFloors(
    trx,
    dialect,
    table,
    rows.map((r) => ({ key: r.key, locale: r.locale, floor: Math.fround(Number(r.score)) })),
  );
  for (const part of chunks(rows)) {
    await sql`delete from ${headsOf(table)} where key in (${sql.join(part.map((r) => r.key))})
      and score < (select f.floor from ${floorsOf(table)} f
        where f.key = ${headsOf(table)}.key and f.locale = ${headsOf(table)}.locale)`.execute(trx);
  }
}

/** Remove documents from every list by their handles (their entry was rewritten or deleted). */
export async function removeDocuments(trx: Kdb, table: string, docs: number[]): Promise<void> {
  for (const part of chunks(docs)) {
    await sql`delete from ${headsOf(table)} where doc in (${sql.join(part)})`.execute(trx);
  }
}

/**
 * Add documents to the lists of their common keys where they reach the floor.
 * A list offered more than `size` documents at once (a build step) keeps its
 * best `size`: its floor rises to the last of them, and rows an earlier step
 * listed below it go. Adding a document twice (a build step and an entry
 * write both saw it) changes nothing.
 */
export async function addDocuments(
  trx: Kdb,
  dialect: DialectName,
  table: string,
  scoring: HeadScoring,
  meta: HeadMeta,
  docs: DocTokens[],
): Promise<void> {
  if (!docs.length) return;
  const keys = await commonKeys(trx, table);
  if (!keys.size) return;
  const floors = await floorsOfTable(trx, table);
  const candidates = new Map<string, HeadRow[]>();
  for (const d of docs) {
    for (const [key, tf] of keyCounts(d, keys)) {
      const score = impactOf(scoring, meta, tf, d.length);
      const id = listId(key, d.locale);
      if (score < (floors.get(id) ?? 0)) continue;
      const row: HeadRow = {
        key,
        locale: d.locale,
        doc: d.doc,
        entry: d.entry,
        live: d.live,
        current: d.current,
        tf,
        length: d.length,
        score,
      };
      const list = candidates.get(id);
      if (list) list.push(row);
      else candidates.set(id, [row]);
    }
  }
  const rows: HeadRow[] = [];
  const raised: Array<{ key: string; locale: string; floor: number }> = [];
  for (const [id, list] of candidates) {
    const { key, locale } = list[0];
    const known = floors.get(id);
    let floor = known ?? 0;
    if (list.length > meta.size) {
      list.sort((x, y) => y.score - x.score);
      floor = Math.max(floor, list[meta.size - 1].score);
    }
    // A key met in a locale for the first time gets its floor row; a batch that filled a list raises it.
    if (known === undefined || floor > known) raised.push({ key, locale, floor });
    for (const r of list) if (r.score >= floor) rows.push(r);
  }
  const seen = (r: HeadRow) => (r.live ? SEEN_LIVE : 0) | (r.current ? SEEN_CURRENT : 0);
  const count = (n: number) => Math.min(n, MAX_COUNT);
  for (const part of chunks(rows)) {
    await sql`insert into ${headsOf(table)} (key, locale, doc, entry, seen, ta, tb, tc, td, len, score)
      values ${sql.join(
        part.map(
          (r) =>
            sql`(${r.key}, ${r.locale}, ${r.doc}, ${r.entry}, ${seen(r)}, ${count(r.tf[0])}, ${count(r.tf[1])}, ${count(r.tf[2])}, ${count(r.tf[3])}, ${r.length}, ${r.score})`,
        ),
      )}
      on conflict do nothing`.execute(trx);
  }
  if (!raised.length) return;
  await raiseFloors(trx, dialect, table, raised);
  for (const r of raised) {
    if (r.floor === 0) continue;
    await sql`delete from ${headsOf(table)} where key = ${r.key} and locale = ${r.locale} and score < ${r.floor}`.execute(
      trx,
    );
  }
}

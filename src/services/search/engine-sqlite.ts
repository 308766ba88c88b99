import { type RawBuilder, sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import {
  assertIndexTable,
  indexBaseOf,
  type Keyset,
  MARK_CLOSE,
  MARK_OPEN,
  type RankRequest,
  type SearchEngine,
} from './engine.js';
import { createVocab, sqliteHeads, vocabOf } from './engine-sqlite-heads.js';
import { writeLegacy } from './engine-sqlite-legacy.js';
import { addDocuments, createHeadTables, dropHeadTables, readHeadMeta, removeDocuments } from './heads.js';
import { TIERS, type Tokenizer } from './model.js';
import { FTS_TOKENIZE, TITLE_TOKENIZE } from './sqlite-tokenizers.js';
import { documentTokens } from './sqlite-tokens.js';

export { FTS_TOKENIZE, TITLE_TOKENIZE };

import { forTrigrams, forWords, type ParsedQuery, type Unit } from './query.js';

/**
 * SQLite: FTS5. Each index has a narrow table of documents (`<t>_docs`: entry,
 * visibility, locale, title), the tier texts beside it (`<t>_text`, same
 * rowids) and two external-content FTS5 tables: `<t>` over the texts (tiers
 * a–d, ranked with weighted bm25) and `<t>_title` over the titles (for
 * suggestions). Ranking joins every match to its `<t>_docs` row for the read
 * filters: kept narrow, that table stays in SQLite's page cache, where rows
 * carrying a kilobyte of text each cost one page read per match.
 */

const SNIPPET_TOKENS = 24;
/** Pages of index written per compaction step (4 KiB each). */
const MERGE_PAGES = 2_000;
const SUGGEST_CANDIDATES = 50;
const PREFIXES = '2 3 4';
/** Documents removed per statement: two bound values each in the titles' delete, far below SQLite's limit. */
const REMOVE_CHUNK = 5_000;

/**
 * Storage layouts, oldest first: 1 kept the texts inside `<t>_docs`; 2 moved
 * them to `<t>_text` and indexes prefixes up to 4 letters; 3 adds the head
 * lists (heads.ts). Older ones keep serving and following writes until the
 * background worker has rebuilt them (`outdated`). A table never changes layout.
 */
type Layout = 1 | 2 | 3;
const layouts = new Map<string, Layout>();

async function layoutOf(db: Kdb, table: string): Promise<Layout | null> {
  const known = layouts.get(table);
  if (known) return known;
  const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_schema
    where name in (${table}, ${`${table}_hmeta`})`.execute(db);
  const fts = rows.find((r) => r.name === table);
  if (!fts) return null;
  const second = fts.sql.includes(`content='${table}_text'`) && fts.sql.includes(PREFIXES);
  const layout: Layout = !second ? 1 : rows.some((r) => r.name === `${table}_hmeta`) ? 3 : 2;
  layouts.set(table, layout);
  return layout;
}

const id = (name: string) => sql.id(assertIndexTable(name));
const docsOf = (t: string) => sql.id(`${assertIndexTable(t)}_docs`);
const textOf = (t: string) => sql.id(`${assertIndexTable(t)}_text`);
const titleOf = (t: string) => sql.id(`${assertIndexTable(t)}_title`);
const flag = (v: RankRequest['visibility']) => sql.raw(v === 'live' ? 'd.live' : 'd.current');

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

function unitExpr(u: Unit, trigram: boolean): string {
  if (trigram) return quote(u.raw);
  return `${quote(u.words.join(' '))}${u.prefix ? '*' : ''}`;
}

/** The FTS5 expression of a parsed query: every user word quoted, so no input is FTS5 syntax. */
export function ftsExpression(query: ParsedQuery, tokenizer: Tokenizer): string | null {
  const trigram = tokenizer === 'trigram';
  const q = trigram ? forTrigrams(query) : forWords(query);
  if (!q) return null;
  const group = (g: Unit[]) =>
    g.length === 1 ? unitExpr(g[0], trigram) : `(${g.map((u) => unitExpr(u, trigram)).join(' OR ')})`;
  const positive = q.groups.map(group).join(' AND ');
  if (!q.exclude.length) return positive;
  return `(${positive}) NOT (${q.exclude.map((u) => unitExpr(u, trigram)).join(' OR ')})`;
}

function keysetSql(k: Keyset | null): RawBuilder<unknown> {
  if (!k) return sql`1 = 1`;
  const tie = k.tie === 'include' ? sql`1 = 1` : k.tie === 'exclude' ? sql`1 = 0` : sql`entry_id > ${k.id}`;
  return sql`(score < ${k.score} or (score = ${k.score} and ${tie}))`;
}

/**
 * Remove every document of the entries: from the documents (which tells their rowids and titles),
 * the head lists, both FTS5 indexes and the texts.
 */
async function removeEntries(trx: Kdb, table: string, entryIds: string[], heads: boolean): Promise<void> {
  const { rows: gone } = await sql<{ rowid: number; title: string }>`delete from ${docsOf(table)}
    where entry_id in (${sql.join(entryIds)}) returning rowid, title`.execute(trx);
  if (!gone.length) return;
  const rowids = gone.map((r) => Number(r.rowid));
  if (heads) await removeDocuments(trx, table, rowids);
  // External-content FTS5: remove the old terms with the exact text they were indexed from.
  for (let i = 0; i < gone.length; i += REMOVE_CHUNK) {
    const part = gone.slice(i, i + REMOVE_CHUNK);
    const list = sql.join(part.map((r) => Number(r.rowid)));
    await sql`insert into ${id(table)} (${id(table)}, rowid, a, b, c, d)
      select 'delete', rowid, a, b, c, d from ${textOf(table)} where rowid in (${list})`.execute(trx);
    await sql`delete from ${textOf(table)} where rowid in (${list})`.execute(trx);
    await sql`insert into ${titleOf(table)} (${titleOf(table)}, rowid, title)
      values ${sql.join(part.map((r) => sql`('delete', ${Number(r.rowid)}, ${r.title})`))}`.execute(trx);
  }
}

export const sqliteEngine: SearchEngine = {
  heads: sqliteHeads,

  async supports() {
    return true;
  },

  async create(trx, table, tokenizer) {
    await sql`create table ${docsOf(table)} (
      rowid integer primary key, entry_id text not null, version integer not null,
      live integer not null, current integer not null,
      locale text not null, status text not null, slug text, title text not null)`.execute(trx);
    await sql`create index ${sql.id(`${table}_docs_entry`)} on ${docsOf(table)} (entry_id)`.execute(trx);
    await sql`create table ${textOf(table)} (
      rowid integer primary key, a text not null, b text not null, c text not null, d text not null)`.execute(trx);
    // Prefix indexes make `abc*` one lookup instead of a merge of every word starting so (up to four letters).
    await sql`create virtual table ${id(table)} using fts5(a, b, c, d,
      content=${sql.lit(`${table}_text`)}, content_rowid='rowid', tokenize=${sql.lit(FTS_TOKENIZE[tokenizer])},
      prefix=${sql.lit(PREFIXES)})`.execute(trx);
    await sql`create virtual table ${titleOf(table)} using fts5(title,
      content=${sql.lit(`${table}_docs`)}, content_rowid='rowid', tokenize=${sql.lit(TITLE_TOKENIZE[tokenizer])},
      prefix=${sql.lit(PREFIXES)})`.execute(trx);
    await createVocab(trx, table);
    await createHeadTables(trx, 'sqlite', table);
  },

  async outdated(db, table) {
    const layout = await layoutOf(db, table);
    return layout !== null && layout < 3;
  },

  async compact(trx, table) {
    // A negative 'merge' merges across levels (as 'optimize' does) but stops after about that many
    // pages, so no step holds SQLite's write lock for long; no change means nothing is left.
    let done = true;
    for (const t of [id(table), titleOf(table)]) {
      const before = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
      await sql`insert into ${t} (${t}, rank) values ('merge', ${-MERGE_PAGES})`.execute(trx);
      const after = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
      // FTS5: a change count below two means the command found nothing to merge.
      if (Number(after.rows[0].n) - Number(before.rows[0].n) >= 2) done = false;
    }
    return done;
  },

  async built(trx, table) {
    // FTS5's automerge keeps segments in check as steps write; a full 'optimize' would rewrite
    // the whole index inside the last step. Statistics help the documents-table joins.
    await sql`analyze ${docsOf(table)}`.execute(trx);
  },

  async drop(trx, table) {
    await dropHeadTables(trx, table);
    await sql`drop table if exists ${vocabOf(table)}`.execute(trx);
    layouts.delete(table);
    await sql`drop table if exists ${titleOf(table)}`.execute(trx);
    await sql`drop table if exists ${id(table)}`.execute(trx);
    await sql`drop table if exists ${docsOf(table)}`.execute(trx);
    await sql`drop table if exists ${textOf(table)}`.execute(trx);
  },

  async write(trx, table, tokenizer, entryIds, docs, options = {}) {
    if (!entryIds.length) return;
    const layout = await layoutOf(trx, table);
    // An index of the first layout (texts inside `<t>_docs`) is still written while its replacement builds.
    if (layout === 1) return writeLegacy(trx, table, entryIds, docs);
    const heads = layout === 3 ? await readHeadMeta(trx, table) : null;
    // New entries have no documents: the statements that find and remove old ones would find none.
    if (!options.fresh) await removeEntries(trx, table, entryIds, heads !== null);
    if (!docs.length) return;
    // Rowids tie each document to its text. SQLite gives each new row one more than the largest rowid
    // of the table, in the order of the values (the write transaction holds SQLite's only write lock),
    // so the documents get a run of rowids from `first`; what the insert returns confirms it.
    const { rows: made } = await sql<{ rowid: number; entry_id: string; live: number; current: number }>`
      insert into ${docsOf(table)} (entry_id, version, live, current, locale, status, slug, title)
      values ${sql.join(
        docs.map(
          (d) =>
            sql`(${d.entryId}, ${d.version}, ${d.live ? 1 : 0}, ${d.current ? 1 : 0}, ${d.locale}, ${d.status}, ${d.slug}, ${d.title})`,
        ),
      )}
      returning rowid, entry_id, live, current`.execute(trx);
    const first = made.reduce((m, r) => Math.min(m, Number(r.rowid)), Number.POSITIVE_INFINITY);
    const byRowid = new Map(made.map((r) => [Number(r.rowid) - first, r]));
    docs.forEach((d, i) => {
      const r = byRowid.get(i);
      if (
        !r ||
        r.entry_id !== d.entryId ||
        Number(r.live) !== (d.live ? 1 : 0) ||
        Number(r.current) !== (d.current ? 1 : 0)
      ) {
        throw new Error(`search index ${table}: the new documents did not get consecutive rowids`);
      }
    });
    await sql`insert into ${textOf(table)} (rowid, a, b, c, d)
      values ${sql.join(docs.map((d, i) => sql`(${first + i}, ${d.text.a}, ${d.text.b}, ${d.text.c}, ${d.text.d})`))}`.execute(
      trx,
    );
    const range = sql`rowid >= ${first}`;
    await sql`insert into ${id(table)} (rowid, a, b, c, d) select rowid, a, b, c, d from ${textOf(table)} where ${range}`.execute(
      trx,
    );
    await sql`insert into ${titleOf(table)} (rowid, title) select rowid, title from ${docsOf(table)} where ${range}`.execute(
      trx,
    );
    if (heads && tokenizer !== 'trigram') {
      const tokens = await documentTokens(
        trx,
        tokenizer,
        FTS_TOKENIZE[tokenizer],
        docs.map((d, i) => ({
          rowid: first + i,
          entry: d.entryId,
          locale: d.locale,
          live: d.live,
          current: d.current,
          text: d.text,
        })),
      );
      await addDocuments(trx, 'sqlite', table, sqliteHeads, heads, tokens);
    }
  },

  async stale(db, table, entryTable, since) {
    const e = sql.id(entryTable);
    const { rows } = await sql<{ id: string }>`
      select e.id as id from ${e} e left join ${docsOf(table)} d on d.entry_id = e.id
      where e.updated_at >= ${since}
        and ((e.deleted_at is null and (d.entry_id is null or d.version <> e.version))
          or (e.deleted_at is not null and d.entry_id is not null))
      union
      select d.entry_id from ${docsOf(table)} d where not exists (select 1 from ${e} x where x.id = d.entry_id)`.execute(
      db,
    );
    return rows.map((r) => r.id);
  },

  async rank(db, req) {
    const match = ftsExpression(req.query, req.tokenizer);
    if (!match) return [];
    const w = req.tierWeights;
    const { rows } = await sql<{ entry_id: string; score: number; ref: number }>`
      select entry_id, score, ref from (
        select d.entry_id as entry_id, d.rowid as ref,
          -bm25(${id(req.table)}, ${w.a}, ${w.b}, ${w.c}, ${w.d}) as score
        from ${id(req.table)} join ${docsOf(req.table)} d on d.rowid = ${id(req.table)}.rowid
        where ${id(req.table)} match ${match} and ${flag(req.visibility)} = 1 and d.locale = ${req.locale}
        order by ${id(req.table)}.rowid desc
        limit ${req.window}
      ) where ${keysetSql(req.after)}
      order by score desc, entry_id asc
      limit ${req.limit}`.execute(db);
    return rows.map((r) => ({ entryId: r.entry_id, score: Number(r.score), ref: Number(r.ref) }));
  },

  async passages(db, req, candidates) {
    const match = ftsExpression(req.query, req.tokenizer);
    if (!match || !candidates.length) return [];
    // Word indexes: whole texts with every match marked, cut by the service the way PostgreSQL's are
    // (passage-window.ts). Trigram matches sit inside words, which that window cannot mark: snippet().
    const whole = req.tokenizer !== 'trigram';
    const marked = (i: number) =>
      whole
        ? sql`highlight(${id(req.table)}, ${i}, ${MARK_OPEN}, ${MARK_CLOSE})`
        : sql`snippet(${id(req.table)}, ${i}, ${MARK_OPEN}, ${MARK_CLOSE}, '…', ${SNIPPET_TOKENS})`;
    const { rows } = await sql<{
      entry_id: string;
      locale: string;
      slug: string | null;
      title: string;
      status: string;
      sa: string | null;
      sb: string | null;
      sc: string | null;
      sd: string | null;
    }>`
      select d.entry_id, d.locale, d.slug, d.title, d.status,
        ${sql.join(TIERS.map((t, i) => sql`${marked(i)} as ${sql.ref(`s${t}`)}`))}
      from ${id(req.table)} join ${docsOf(req.table)} d on d.rowid = ${id(req.table)}.rowid
      where ${id(req.table)} match ${match} and ${id(req.table)}.rowid in (${sql.join(candidates.map((c) => Number(c.ref)))})`.execute(
      db,
    );
    return rows.map((r) => ({
      entryId: r.entry_id,
      locale: r.locale,
      slug: r.slug,
      title: r.title,
      status: r.status,
      snippets: { a: r.sa ?? '', b: r.sb ?? '', c: r.sc ?? '', d: r.sd ?? '' },
      whole,
    }));
  },

  async suggest(db, req) {
    const match = suggestExpression(req.query, req.tokenizer);
    if (!match) return [];
    const { rows } = await sql<{ entry_id: string; locale: string; slug: string | null; title: string }>`
      select d.entry_id, d.locale, d.slug, d.title
      from ${titleOf(req.table)} join ${docsOf(req.table)} d on d.rowid = ${titleOf(req.table)}.rowid
      where ${titleOf(req.table)} match ${match} and ${flag(req.visibility)} = 1 and d.locale = ${req.locale}
      limit ${SUGGEST_CANDIDATES}`.execute(db);
    return rows.map((r) => ({ entryId: r.entry_id, locale: r.locale, slug: r.slug, title: r.title }));
  },

  async stats(db, table) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${docsOf(table)}`.execute(db);
    let sizeBytes: number | null = null;
    try {
      const size = await sql<{ bytes: number | null }>`
        select sum(pgsize) as bytes from dbstat
        where aggregate = 1 and name in (
          select name from sqlite_schema where name = ${table} or name glob ${`${table}_*`})`.execute(db);
      sizeBytes = Number(size.rows[0]?.bytes ?? 0);
    } catch {
      // A build without the dbstat table: the size is unknown.
    }
    return { documents: Number(rows[0]?.n ?? 0), sizeBytes };
  },

  async indexedEntries(db, table, after, limit) {
    const { rows } = await sql<{ entry_id: string }>`select distinct entry_id from ${docsOf(table)}
      where ${after === null ? sql`1 = 1` : sql`entry_id > ${after}`} order by entry_id limit ${limit}`.execute(db);
    return rows.map((r) => r.entry_id);
  },

  async documentKeys(db, table, entryIds) {
    if (!entryIds.length) return [];
    const { rows } = await sql<{
      entry_id: string;
      version: number;
      live: number;
      current: number;
      locale: string;
      status: string;
    }>`select entry_id, version, live, current, locale, status from ${docsOf(table)}
      where entry_id in (${sql.join(entryIds)})`.execute(db);
    return rows.map((r) => ({
      entryId: r.entry_id,
      version: Number(r.version),
      live: Number(r.live) === 1,
      current: Number(r.current) === 1,
      locale: r.locale,
      status: r.status,
    }));
  },

  async indexTables(db) {
    const { rows } = await sql<{ name: string }>`select name from sqlite_schema
      where type = 'table' and name glob '_cms_fts_*'`.execute(db);
    return [...new Set(rows.map((r) => indexBaseOf(r.name)).filter((n): n is string => n !== null))].sort();
  },
};

/** Suggestions complete every word of the input as a prefix of a title word (or a substring for trigrams). */
export function suggestExpression(query: ParsedQuery, tokenizer: Tokenizer): string | null {
  if (tokenizer === 'trigram') {
    const q = forTrigrams(query);
    return q
      ? q.groups
          .flat()
          .map((u) => quote(u.raw))
          .join(' AND ')
      : null;
  }
  const words = query.groups.flat().flatMap((u) => u.words);
  return words.length ? words.map((w) => `${quote(w)}*`).join(' AND ') : null;
}

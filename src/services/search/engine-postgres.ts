import { type RawBuilder, sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { runNamed } from '../../db/pg-named.js';
import { assertIndexTable, indexBaseOf, type RankRequest, type SearchEngine } from './engine.js';
import { postgresHeads, tokensOf } from './engine-postgres-heads.js';
import { addDocuments, createHeadTables, dropHeadTables, readHeadMeta, removeDocuments } from './heads.js';
import { TIERS, type Tier } from './model.js';
import { pgMarker } from './pg-lexemes.js';
import {
  addPairs,
  choosePairWords,
  createPairTables,
  dropPairTables,
  removePairs,
  requiredPairs,
} from './pg-phrase-pairs.js';
import { config, keysetSql, rankWeights, trigramScore, trigramWhere, tsQuery, wordText } from './pg-query.js';
import { forTrigrams } from './query.js';
import { substringSnippet } from './snippet.js';

/**
 * PostgreSQL: two tables per index. `<t>` is kept narrow for ranking (entry,
 * visibility, locale, title, the vectors), so a document's tsvector stays in
 * the row instead of TOAST storage; `<t>_text` holds the tier texts that
 * headlines and substring scores read. Word tokenizers keep a weighted tsvector
 * (tiers a–d → weights A–D) under GIN, ranked with ts_rank_cd; passages are
 * cut in TypeScript (passage-window.ts, pg-lexemes.ts); the text search configurations come from migration 009
 * (`cms_english`: English stemming; `cms_simple`: none; both fold accents
 * when `unaccent` is installed). The trigram tokenizer matches substrings
 * through pg_trgm GIN indexes.
 */
const WEIGHT_LETTER: Record<Tier, string> = { a: 'A', b: 'B', c: 'C', d: 'D' };
const SUGGEST_CANDIDATES = 50;
/** What an index table's storage has; tables of an earlier layout are rebuilt by the worker. */
interface Layout {
  /**
   * Not the current layout: head lists with their index by handle; for word indexes the title
   * prefix index and the phrase pairs.
   */
  outdated: boolean;
  /** The text table holds what a result shows (title, slug, status...), not only the tier texts. */
  wideText: boolean;
}
/** Layouts of tables known to be current (a table never changes layout). */
const current = new Map<string, Layout>();
/** LIKE pattern of text at the start (backslash escapes the wildcards). */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const suggestRow = (r: { entry_id: string; locale: string; slug: string | null; title: string }) => ({
  entryId: r.entry_id,
  locale: r.locale,
  slug: r.slug,
  title: r.title,
});

const id = (name: string) => sql.id(assertIndexTable(name));
const textOf = (name: string) => sql.id(`${assertIndexTable(name)}_text`);
const flag = (v: RankRequest['visibility']) => sql.raw(v === 'live' ? 'live' : 'current');

export function postgresEngine(): SearchEngine {
  let trigramOps: Promise<string | null> | null = null;
  /** Schema of pg_trgm's operator class, or null when the extension is missing. */
  const trgmSchema = (db: Kdb) => {
    trigramOps ??= sql<{ schema: string }>`
      select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`
      .execute(db)
      .then((r) => r.rows[0]?.schema ?? null);
    return trigramOps;
  };

  async function layoutOf(db: Kdb, table: string): Promise<Layout> {
    const known = current.get(table);
    if (known) return known;
    const { rows } = await sql<{
      base: string | null;
      tsv: string | null;
      prefix: string | null;
      heads: string | null;
      handles: string | null;
      pairs: string | null;
      wide: boolean;
    }>`
      select to_regclass(${table})::text as base, to_regclass(${`${table}_tsv`})::text as tsv,
        to_regclass(${`${table}_tprefix`})::text as prefix, to_regclass(${`${table}_hmeta`})::text as heads,
        to_regclass(${`${table}_heads_doc`})::text as handles, to_regclass(${`${table}_pairs`})::text as pairs,
        exists (select 1 from pg_attribute where attrelid = to_regclass(${`${table}_text`})
          and attname = 'title' and not attisdropped) as wide`.execute(db);
    const r = rows[0];
    if (!r?.base) return { outdated: false, wideText: true };
    // Word indexes built before title-start suggestions lack the title prefix index, before phrase
    // pairs their tables; indexes built before head lists lack theirs, and those of the first head
    // lists their index by handle.
    const words = !!r.tsv;
    const outdated = (words && (!r.prefix || !r.pairs)) || !r.heads || !r.handles || !r.wide;
    const layout = { outdated, wideText: r.wide };
    if (!layout.outdated) current.set(table, layout);
    return layout;
  }
  const outdated = async (db: Kdb, table: string) => (await layoutOf(db, table)).outdated;

  /** The phrase pairs every match of a word query holds, once the index's lists are ready; [] otherwise. */
  async function phrasePairs(db: Kdb, req: RankRequest): Promise<number[]> {
    if (await outdated(db, req.table)) return [];
    if (!(await readHeadMeta(db, req.table))?.ready) return [];
    return requiredPairs(db, req.table, config(req.tokenizer), req.query);
  }

  return {
    heads: { ...postgresHeads, postings: { start: choosePairWords, add: addPairs } },

    async supports(db, tokenizer) {
      if (tokenizer !== 'trigram') return true;
      trigramOps = null;
      return (await trgmSchema(db)) !== null;
    },

    async create(trx, table, tokenizer) {
      // `doc`: a compact handle of each document for the head lists.
      await sql`create table ${id(table)} (
        doc bigint generated always as identity,
        entry_id text not null, version bigint not null, live boolean not null, current boolean not null,
        locale text not null, status text not null, slug text, title text not null,
        tsv tsvector, ttsv tsvector, alltext text)`.execute(trx);
      await sql`create index ${sql.id(`${table}_entry`)} on ${id(table)} (entry_id)`.execute(trx);
      await sql`create unique index ${sql.id(`${table}_doc`)} on ${id(table)} (doc)`.execute(trx);
      await createHeadTables(trx, 'postgres', table);
      // What a result shows, so passages read this table alone (one page a result).
      await sql`create table ${textOf(table)} (
        entry_id text not null, live boolean not null, current boolean not null,
        locale text not null, status text not null, slug text, title text not null,
        a text not null, b text not null, c text not null, d text not null,
        primary key (entry_id, live))`.execute(trx);
      if (tokenizer === 'trigram') {
        const schema = await trgmSchema(trx);
        if (!schema) throw new Error('pg_trgm is not installed');
        const ops = sql`${sql.id(schema)}.gin_trgm_ops`;
        const opts = sql`with (gin_pending_list_limit = 512)`;
        await sql`create index ${sql.id(`${table}_trgm`)} on ${id(table)} using gin (alltext ${ops}) ${opts}`.execute(
          trx,
        );
        await sql`create index ${sql.id(`${table}_ttrgm`)} on ${id(table)} using gin (title ${ops}) ${opts}`.execute(
          trx,
        );
      } else {
        // A short pending list: entry writes stay cheap, searches never scan much unmerged text.
        const opts = sql`with (gin_pending_list_limit = 512)`;
        await sql`create index ${sql.id(`${table}_tsv`)} on ${id(table)} using gin (tsv) ${opts}`.execute(trx);
        await sql`create index ${sql.id(`${table}_ttsv`)} on ${id(table)} using gin (ttsv) ${opts}`.execute(trx);
        // Suggestions: titles starting with what was typed come first and are most of what a short
        // prefix finds; a b-tree range answers them without merging GIN's lists for every word so begun.
        await sql`create index ${sql.id(`${table}_tprefix`)} on ${id(table)} (locale, lower(title) text_pattern_ops)`.execute(
          trx,
        );
        await createPairTables(trx, table);
      }
    },

    outdated,

    async compact() {
      return true;
    },

    async built(trx, table) {
      // Steps inserted through GIN's pending list: merge it into the index, or every search would scan it.
      for (const suffix of ['tsv', 'ttsv', 'trgm', 'ttrgm']) {
        await sql`select gin_clean_pending_list(to_regclass(${`${table}_${suffix}`}))
          where to_regclass(${`${table}_${suffix}`}) is not null`.execute(trx);
      }
      // Head lists were written document by document: stored in list order, a list is a few pages.
      // (A build an earlier release started has none; the worker rebuilds it.)
      if (!(await outdated(trx, table))) {
        await sql`cluster ${sql.id(`${table}_heads`)} using ${sql.id(`${table}_heads_pkey`)}`.execute(trx);
        await sql`analyze ${sql.id(`${table}_heads`)}`.execute(trx);
      }
      // Fresh tables have no statistics: without them the planner scans instead of using GIN.
      await sql`analyze ${id(table)}`.execute(trx);
      await sql`analyze ${textOf(table)}`.execute(trx);
      const { rows } = await sql<{ r: string | null }>`select to_regclass(${`${table}_pairs`})::text as r`.execute(trx);
      if (rows[0]?.r) await sql`analyze ${sql.id(`${table}_pairs`)}`.execute(trx);
    },

    async drop(trx, table) {
      await dropHeadTables(trx, table);
      await dropPairTables(trx, table);
      current.delete(table);
      await sql`drop table if exists ${id(table)}`.execute(trx);
      await sql`drop table if exists ${textOf(table)}`.execute(trx);
    },

    async write(trx, table, tokenizer, entryIds, docs, options = {}) {
      if (!entryIds.length) return;
      const words = tokenizer !== 'trigram';
      const layout = await layoutOf(trx, table);
      const heads = words && !layout.outdated ? await readHeadMeta(trx, table) : null;
      // New entries have no documents: the delete would find none.
      if (!options.fresh) {
        const { rows: gone } = await sql<{ doc: number }>`
          with texts as (delete from ${textOf(table)} where entry_id = any(${entryIds}))
          delete from ${id(table)} where entry_id = any(${entryIds})
          ${heads ? sql`returning doc` : sql``}`.execute(trx);
        const handles = gone.map((r) => Number(r.doc));
        if (heads) {
          await removeDocuments(trx, table, handles);
          await removePairs(trx, table, handles);
        }
      }
      if (!docs.length) return;
      const payload = JSON.stringify(
        docs.map((d) => ({
          entry_id: d.entryId,
          version: d.version,
          live: d.live,
          current: d.current,
          locale: d.locale,
          status: d.status,
          slug: d.slug,
          title: d.title,
          ...d.text,
          ...(words
            ? {
                wa: wordText(d.text.a),
                wb: wordText(d.text.b),
                wc: wordText(d.text.c),
                wd: wordText(d.text.d),
                wt: wordText(d.title),
              }
            : {}),
        })),
      );
      const vector = words
        ? sql`${sql.join(
            TIERS.map(
              (t) => sql`setweight(to_tsvector(${config(tokenizer)}, v.${sql.ref(`w${t}`)}), ${WEIGHT_LETTER[t]})`,
            ),
            sql` || `,
          )}`
        : sql`null::tsvector`;
      const titleVector = words ? sql`to_tsvector('cms_simple', v.wt)` : sql`null::tsvector`;
      const alltext = words ? sql`null::text` : sql`concat_ws(E'\\n', v.a, v.b, v.c, v.d)`;
      // One statement for both tables: entry writes pay one round trip for the documents.
      const inserted = await sql<{
        doc: number;
        entry_id: string;
        locale: string;
        live: boolean;
        current: boolean;
        tsv: string;
      }>`with v as (
          select * from jsonb_to_recordset(${payload}::jsonb) as v(
            entry_id text, version bigint, live boolean, current boolean, locale text, status text, slug text,
            title text, a text, b text, c text, d text, wa text, wb text, wc text, wd text, wt text)
        ), texts as (
          ${
            !layout.wideText
              ? sql`insert into ${textOf(table)} (entry_id, live, a, b, c, d) select v.entry_id, v.live, v.a, v.b, v.c, v.d from v`
              : sql`insert into ${textOf(table)} (entry_id, live, current, locale, status, slug, title, a, b, c, d)
                  select v.entry_id, v.live, v.current, v.locale, v.status, v.slug, v.title, v.a, v.b, v.c, v.d from v`
          }
        )
        insert into ${id(table)} (entry_id, version, live, current, locale, status, slug, title, tsv, ttsv, alltext)
        select v.entry_id, v.version, v.live, v.current, v.locale, v.status, v.slug, v.title,
          ${vector}, ${titleVector}, ${alltext}
        from v
        ${heads ? sql`returning doc, entry_id, locale, live, current, tsv::text as tsv` : sql``}`.execute(trx);
      if (heads) {
        const tokens = inserted.rows.map(tokensOf);
        await addDocuments(trx, 'postgres', table, postgresHeads, heads, tokens);
        await addPairs(trx, table, tokens);
      }
    },

    async stale(db, table, entryTable, since) {
      const e = sql.id(entryTable);
      const { rows } = await sql<{ id: string }>`
        select e.id as id from ${e} e left join ${id(table)} d on d.entry_id = e.id
        where e.updated_at >= ${since}
          and ((e.deleted_at is null and (d.entry_id is null or d.version <> e.version))
            or (e.deleted_at is not null and d.entry_id is not null))
        union
        select d.entry_id from ${id(table)} d where not exists (select 1 from ${e} x where x.id = d.entry_id)`.execute(
        db,
      );
      return rows.map((r) => r.id);
    },

    async rank(db, req) {
      const filter = sql`${flag(req.visibility)} and locale = ${req.locale}`;
      let inner: RawBuilder<unknown>;
      if (req.tokenizer === 'trigram') {
        const where = trigramWhere(req.query, sql.ref('alltext'));
        if (!where) return [];
        inner = sql`select m.entry_id, ${trigramScore(req.query, req.tierWeights)} as score
          from (select entry_id, live, alltext from ${id(req.table)} where ${where} and ${filter} limit ${req.window}) m
          join ${textOf(req.table)} x on x.entry_id = m.entry_id and x.live = m.live`;
      } else {
        const q = tsQuery(req.query, req.tokenizer);
        if (!q) return [];
        const score = sql`ts_rank_cd(${rankWeights(req.tierWeights)}::float4[], t.tsv, ${q}, 1)::float8`;
        const pairs = await phrasePairs(db, req);
        // A phrase of very common words: the entries holding its pairs, fetched by handle (the fence
        // keeps the planner from also reading GIN's list of every entry holding both words).
        inner = pairs.length
          ? sql`select t.entry_id, ${score} as score
            from (select doc from ${sql.id(`${req.table}_pairs`)} where pairs @> ${`{${pairs.join(',')}}`}::int4[]
              offset 0) p
            join ${id(req.table)} t on t.doc = p.doc
            where t.tsv @@ ${q} and t.${flag(req.visibility)} and t.locale = ${req.locale} limit ${req.window}`
          : sql`select t.entry_id, ${score} as score
            from ${id(req.table)} t where t.tsv @@ ${q} and ${filter} limit ${req.window}`;
      }
      // Not a prepared statement: a generic plan cannot tell a rare word (GIN) from a common one (scan).
      const { rows } = await sql<{ entry_id: string; score: number }>`
        select entry_id, score from (${inner}) s where ${keysetSql(req.after)}
        order by score desc, entry_id asc limit ${req.limit}`.execute(db);
      return rows.map((r) => ({ entryId: r.entry_id, score: Number(r.score), ref: r.entry_id }));
    },

    async passages(db, req, candidates) {
      if (!candidates.length) return [];
      const ids = candidates.map((c) => c.entryId);
      // An index of an earlier layout keeps what results show in the ranking table only.
      const from = !(await layoutOf(db, req.table)).wideText
        ? sql`${id(req.table)} t join ${textOf(req.table)} x on x.entry_id = t.entry_id and x.live = t.live
          where t.entry_id = any(${ids}) and t.${flag(req.visibility)}`
        : sql`${textOf(req.table)} t cross join lateral (select t.a, t.b, t.c, t.d) x
          where t.entry_id = any(${ids}) and t.${flag(req.visibility)}`;
      if (req.tokenizer === 'trigram') {
        const { rows } = await sql<{
          entry_id: string;
          locale: string;
          slug: string | null;
          title: string;
          status: string;
          a: string;
          b: string;
          c: string;
          d: string;
        }>`select t.entry_id, t.locale, t.slug, t.title, t.status, x.a, x.b, x.c, x.d from ${from}`.execute(db);
        const terms =
          forTrigrams(req.query)
            ?.groups.flat()
            .map((u) => u.raw) ?? [];
        return rows.map((r) => ({
          entryId: r.entry_id,
          locale: r.locale,
          slug: r.slug,
          title: r.title,
          status: r.status,
          snippets: {
            a: substringSnippet(r.a, terms),
            b: substringSnippet(r.b, terms),
            c: substringSnippet(r.c, terms),
            d: substringSnippet(r.d, terms),
          },
          whole: false,
        }));
      }
      if (!tsQuery(req.query, req.tokenizer)) return [];
      const { rows } = await runNamed(
        db,
        sql<{
          entry_id: string;
          locale: string;
          slug: string | null;
          title: string;
          status: string;
          a: string;
          b: string;
          c: string;
          d: string;
        }>`select t.entry_id, t.locale, t.slug, t.title, t.status, x.a, x.b, x.c, x.d from ${from}`,
      );
      const marker = await pgMarker(
        db,
        req.tokenizer,
        req.query,
        rows.flatMap((r) => [r.a, r.b, r.c, r.d]),
      );
      return rows.map((r) => ({
        entryId: r.entry_id,
        locale: r.locale,
        slug: r.slug,
        title: r.title,
        status: r.status,
        snippets: { a: marker.mark(r.a), b: marker.mark(r.b), c: marker.mark(r.c), d: marker.mark(r.d) },
        whole: true,
      }));
    },

    async suggest(db, req) {
      let match: RawBuilder<unknown>;
      const filter = sql`${flag(req.visibility)} and locale = ${req.locale}`;
      const found: Array<{ entry_id: string; locale: string; slug: string | null; title: string }> = [];
      if (req.tokenizer !== 'trigram' && req.text) {
        const { rows } = await sql<(typeof found)[number]>`
          select entry_id, locale, slug, title from ${id(req.table)}
          where lower(title) like ${likePrefix(req.text.toLowerCase())} and ${filter}
          limit ${SUGGEST_CANDIDATES}`.execute(db);
        found.push(...rows);
      }
      if (found.length >= req.limit) return found.map(suggestRow);
      if (req.tokenizer === 'trigram') {
        const where = trigramWhere({ groups: forTrigrams(req.query)?.groups ?? [], exclude: [] }, sql.ref('title'));
        if (!where) return [];
        match = where;
      } else {
        const words = req.query.groups.flat().flatMap((u) => u.words);
        if (!words.length) return [];
        match = sql`ttsv @@ to_tsquery('cms_simple', ${words.map((w) => `${w}:*`).join(' & ')})`;
      }
      const { rows } = await sql<(typeof found)[number]>`
        select entry_id, locale, slug, title from ${id(req.table)}
        where ${match} and ${filter}
        limit ${SUGGEST_CANDIDATES}`.execute(db);
      const seen = new Set(found.map((r) => r.entry_id));
      return [...found, ...rows.filter((r) => !seen.has(r.entry_id))].map(suggestRow);
    },

    async stats(db, table) {
      const { rows } = await sql<{ n: number; bytes: number }>`
        select (select count(*) from ${id(table)})::int as n,
          (select sum(pg_total_relation_size(r)) from unnest(array[to_regclass(${table}),
            ${sql.join(['text', 'heads', 'hkeys', 'hfloors', 'hmeta', 'pairs', 'pwords'].map((s) => sql`to_regclass(${`${table}_${s}`})`))}]) r
            where r is not null)::float8 as bytes`.execute(db);
      return { documents: Number(rows[0]?.n ?? 0), sizeBytes: Number(rows[0]?.bytes ?? 0) };
    },

    async indexedEntries(db, table, after, limit) {
      const { rows } = await sql<{ entry_id: string }>`select distinct entry_id from ${id(table)}
        where ${after === null ? sql`true` : sql`entry_id > ${after}`} order by entry_id limit ${limit}`.execute(db);
      return rows.map((r) => r.entry_id);
    },

    async documentKeys(db, table, entryIds) {
      if (!entryIds.length) return [];
      const { rows } = await sql<{
        entry_id: string;
        version: number | string;
        live: boolean;
        current: boolean;
        locale: string;
        status: string;
      }>`select entry_id, version, live, current, locale, status from ${id(table)}
        where entry_id = any(${entryIds})`.execute(db);
      return rows.map((r) => ({
        entryId: r.entry_id,
        version: Number(r.version),
        live: r.live,
        current: r.current,
        locale: r.locale,
        status: r.status,
      }));
    },

    async indexTables(db) {
      // Tables of this connection's schema only: another schema's index belongs to another site.
      const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables
        where schemaname = current_schema() and starts_with(tablename, '_cms_fts_')`.execute(db);
      return [...new Set(rows.map((r) => indexBaseOf(r.name)).filter((n): n is string => n !== null))].sort();
    },
  };
}

import { type RawBuilder, sql } from 'kysely';
import type { Keyset } from './engine.js';
import { TIERS, type Tier, type Tokenizer } from './model.js';
import { forTrigrams, forWords, type ParsedQuery, type Unit, wordsOf } from './query.js';

/**
 * The SQL pieces of PostgreSQL searches, built from a parsed query. Nothing
 * the user typed reaches a query parser as syntax: words and phrases go to
 * websearch_to_tsquery quoted, prefixes to to_tsquery as letters and digits
 * only, substrings to ILIKE with the wildcards escaped.
 */
const CONFIG: Record<Exclude<Tokenizer, 'trigram'>, string> = {
  'porter unicode61': 'cms_english',
  unicode61: 'cms_simple',
};
export const config = (t: Tokenizer) => sql.lit(CONFIG[t as Exclude<Tokenizer, 'trigram'>]);

/**
 * Text as the tsvector sees it: separators where FTS5's unicode61 has them,
 * so PostgreSQL's parser does not turn URLs, e-mail addresses or file names
 * into single tokens that FTS5 would split.
 */
export const wordText = (text: string) => wordsOf(text).join(' ');

/** One query unit as a tsquery: websearch_to_tsquery for words and phrases, to_tsquery for prefixes. */
function unitQuery(u: Unit, cfg: RawBuilder<unknown>): RawBuilder<unknown> {
  if (!u.prefix) return sql`websearch_to_tsquery(${cfg}, ${`"${u.words.join(' ')}"`})`;
  // Words hold only letters, digits and marks: no tsquery operator can reach to_tsquery.
  const terms = u.words.map((w, i) => (i === u.words.length - 1 ? `${w}:*` : w)).join(' <-> ');
  return sql`to_tsquery(${cfg}, ${terms})`;
}

export function tsQuery(query: ParsedQuery, tokenizer: Tokenizer): RawBuilder<unknown> | null {
  const q = forWords(query);
  if (!q) return null;
  const cfg = config(tokenizer);
  const group = (g: Unit[]) =>
    sql`(${sql.join(
      g.map((u) => unitQuery(u, cfg)),
      sql` || `,
    )})`;
  // Parenthesised: `@@` binds tighter than `&&`.
  const positive = sql`(${sql.join(q.groups.map(group), sql` && `)})`;
  if (!q.exclude.length) return positive;
  return sql`(${positive} && !!(${sql.join(
    q.exclude.map((u) => unitQuery(u, cfg)),
    sql` || `,
  )}))`;
}

/** LIKE pattern matching `text` anywhere (backslash escapes the wildcards). */
export const likeAnywhere = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function trigramWhere(query: ParsedQuery, column: RawBuilder<unknown>): RawBuilder<unknown> | null {
  const q = forTrigrams(query);
  if (!q) return null;
  const match = (u: Unit) => sql`${column} ilike ${likeAnywhere(u.raw)}`;
  const positive = sql.join(
    q.groups.map((g) => sql`(${sql.join(g.map(match), sql` or `)})`),
    sql` and `,
  );
  if (!q.exclude.length) return positive;
  return sql`${positive} and not (${sql.join(q.exclude.map(match), sql` or `)})`;
}

/**
 * Substring relevance, shaped like bm25: occurrences of each term in each
 * tier times the tier weight, damped by the document length.
 */
export function trigramScore(query: ParsedQuery, weights: Record<Tier, number>): RawBuilder<unknown> {
  const q = forTrigrams(query)!;
  const parts: RawBuilder<unknown>[] = [];
  for (const u of q.groups.flat()) {
    const needle = u.raw.toLowerCase();
    for (const t of TIERS) {
      if (!weights[t]) continue;
      const col = sql.ref(t);
      parts.push(
        sql`${weights[t]}::float8 * (length(lower(${col})) - length(replace(lower(${col}), ${needle}, ''))) / ${needle.length}::float8`,
      );
    }
  }
  if (!parts.length) return sql`0::float8`;
  return sql`((${sql.join(parts, sql` + `)}) / (1 + ln(1 + length(alltext))))::float8`;
}

export function keysetSql(k: Keyset | null): RawBuilder<unknown> {
  if (!k) return sql`true`;
  const tie = k.tie === 'include' ? sql`true` : k.tie === 'exclude' ? sql`false` : sql`entry_id > ${k.id}`;
  return sql`(score < ${k.score}::float8 or (score = ${k.score}::float8 and ${tie}))`;
}

/** ts_rank_cd weights, in PostgreSQL's order {D, C, B, A}, scaled into 0..1. */
export function rankWeights(w: Record<Tier, number>): string {
  const max = Math.max(w.a, w.b, w.c, w.d) || 1;
  return `{${[w.d, w.c, w.b, w.a].map((x) => x / max).join(',')}}`;
}

import { sql } from 'kysely';
import { assertIndexTable } from './engine.js';
import { type DocTokens, MAX_PREFIX, MIN_PREFIX, type TierCounts } from './head-keys.js';
import { type HeadEngine, spread } from './heads.js';
import type { Tier } from './model.js';
import { config, wordText } from './pg-query.js';

/**
 * Head lists on PostgreSQL (see heads.ts): ts_rank_cd with normalisation 1,
 * computed from stored counts. For a query of one term (or one prefix) every
 * occurrence is a cover of its own, worth its weight, so the rank is
 * Σ weight / ln(positions + 1), weights scaled as `rankWeights` scales them.
 * Tokens come from the stored tsvector itself, so they are PostgreSQL's.
 */
const id = (t: string) => sql.id(assertIndexTable(t));

const LETTER_TIER: Record<string, Tier> = { A: 'a', B: 'b', C: 'c', D: 'd' };

/** Lexemes of a tsvector's text form (`'word':1A,4 'other':2B`), each with its positions and tiers. */
export function parseTsvector(text: string): Array<{ lexeme: string; positions: number[]; tiers: Tier[] }> {
  const out: Array<{ lexeme: string; positions: number[]; tiers: Tier[] }> = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "'") {
      i++;
      continue;
    }
    let lexeme = '';
    i++;
    for (; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\\') {
        lexeme += text[++i] ?? '';
      } else if (ch === "'") {
        if (text[i + 1] === "'") {
          lexeme += "'";
          i++;
        } else {
          i++;
          break;
        }
      } else {
        lexeme += ch;
      }
    }
    const positions: number[] = [];
    const tiers: Tier[] = [];
    if (text[i] === ':') {
      i++;
      const m = /^[0-9A-D,]+/.exec(text.slice(i, i + 2_048)) ?? [''];
      for (const p of m[0].split(',')) {
        if (!p) continue;
        const letter = /[A-D]$/.test(p) ? p.slice(-1) : 'D';
        positions.push(Number.parseInt(p, 10));
        tiers.push(LETTER_TIER[letter]);
      }
      i += m[0].length;
    }
    out.push({ lexeme, positions, tiers });
  }
  return out;
}

/** A document's tokens in position order, from its tsvector. */
export function tsvectorTokens(
  text: string,
  doc: { doc: number; entry: string; locale: string; live: boolean; current: boolean },
): DocTokens {
  const all: Array<[number, string, Tier]> = [];
  for (const l of parseTsvector(text)) {
    if (!l.positions.length) all.push([0, l.lexeme, 'd']);
    for (let k = 0; k < l.positions.length; k++) all.push([l.positions[k], l.lexeme, l.tiers[k]]);
  }
  all.sort((x, y) => x[0] - y[0]);
  return {
    ...doc,
    length: all.length,
    terms: all.map((t) => t[1]),
    tiers: all.map((t) => t[2]),
    positions: all.map((t) => t[0]),
    adjacency: 'document',
  };
}

/** ts_rank_cd's weights, scaled into 0..1 by the largest (as `rankWeights` passes them). */
function scaled(w: Record<Tier, number>): Record<Tier, number> {
  const max = Math.max(w.a, w.b, w.c, w.d) || 1;
  return { a: w.a / max, b: w.b / max, c: w.c / max, d: w.d / max };
}

function coverDensity(w: Record<Tier, number>, tf: TierCounts, length: number): number {
  const s = scaled(w);
  const f = s.a * tf[0] + s.b * tf[1] + s.c * tf[2] + s.d * tf[3];
  return length > 0 ? f / Math.log(length + 1) : f;
}

export interface TokenRow {
  doc: number;
  entry_id: string;
  locale: string;
  live: boolean;
  current: boolean;
  tsv: string | null;
}

export const tokensOf = (r: TokenRow): DocTokens =>
  tsvectorTokens(r.tsv ?? '', {
    doc: Number(r.doc),
    entry: r.entry_id,
    locale: r.locale,
    live: r.live,
    current: r.current,
  });

export const postgresHeads: HeadEngine = {
  score: (_corpus, w, tf, length) => coverDensity(w, tf, length),

  async corpus() {
    return { avgLength: 0, idf: 1 };
  },

  async averageLength() {
    return 0;
  },

  async frequencies(db, table) {
    const { rows } = await sql<{ word: string; ndoc: number }>`
      select word, ndoc from ts_stat(format('select tsv from %I', ${assertIndexTable(table)}::text))`.execute(db);
    return {
      rows: await postgresHeads.documents(db, table),
      terms: new Map(rows.map((r) => [r.word, Number(r.ndoc)])),
    };
  },

  async documents(db, table) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${id(table)}`.execute(db);
    return Number(rows[0].n);
  },

  async tokensAfter(db, table, _tokenizer, after, limit) {
    const { rows } = await sql<TokenRow>`select doc, entry_id, locale, live, current, tsv::text as tsv from ${id(table)}
      where doc > ${after} order by doc limit ${limit}`.execute(db);
    return rows.map(tokensOf);
  },

  async sample(db, table, _tokenizer, count) {
    const { rows: range } = await sql<{ lo: number | null; hi: number | null }>`
      select min(doc) as lo, max(doc) as hi from ${id(table)}`.execute(db);
    const ids = spread(Number(range[0]?.lo ?? 1), Number(range[0]?.hi ?? 0), count);
    if (!ids.length) return [];
    const { rows } = await sql<TokenRow>`select doc, entry_id, locale, live, current, tsv::text as tsv from ${id(table)}
      where doc = any(${ids}::bigint[])`.execute(db);
    return rows.map(tokensOf);
  },

  async queryKey(_db, tokenizer, words, prefix) {
    // Computed in the statement that reads the list (one round trip), as queryKey (head-keys.ts) does.
    const cfg = config(tokenizer);
    const text = wordText(words.join(' '));
    if (words.length === 2) {
      if (prefix) return null;
      return sql`(select case when count(*) = 2 then string_agg(lexeme, ' ' order by p) end
        from (select lexeme, unnest(positions) as p from unnest(to_tsvector(${cfg}, ${text}))) x)`;
    }
    const lexeme = sql`(select case when count(*) = 1 then min(lexeme) end from unnest(to_tsvector(${cfg}, ${text})))`;
    if (!prefix) return lexeme;
    return sql`(select case when char_length(l) between ${MIN_PREFIX} and ${MAX_PREFIX} then l || '*' end
      from (select ${lexeme} as l) x)`;
  },
};

import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { MARK_CLOSE, MARK_OPEN } from './engine.js';
import type { Tokenizer } from './model.js';
import { config } from './pg-query.js';
import { forWords, type ParsedQuery } from './query.js';

/**
 * Which words of a returned text match the query, on PostgreSQL, without
 * `ts_headline`: each word's lexemes come from `to_tsvector` under the index's
 * configuration (the same stemming and accent folding the index used), asked
 * once per word and remembered per process. A site's vocabulary is bounded, so
 * after the first searches a page of results needs no database work to mark
 * its matches; ts_headline parsed and stemmed every text of every page again.
 */
const MAX_CACHED = 200_000;

const caches = new Map<string, Map<string, string[]>>();

/** Lexemes of each word (as PostgreSQL's configuration makes them), from the cache or one query for the rest. */
async function lexemesOf(db: Kdb, tokenizer: Tokenizer, words: Iterable<string>): Promise<Map<string, string[]>> {
  const key = String(tokenizer);
  let cache = caches.get(key);
  if (!cache) {
    cache = new Map();
    caches.set(key, cache);
  }
  const missing = [...new Set(words)].filter((w) => !cache.has(w));
  if (missing.length) {
    const { rows } = await sql<{ w: string; l: string[] }>`
      select w, tsvector_to_array(to_tsvector(${config(tokenizer)}, w)) as l
      from unnest(${missing}::text[]) as w`.execute(db);
    // Dropping everything at the limit is crude but bounded; the words of current searches come back at once.
    if (cache.size + rows.length > MAX_CACHED) cache.clear();
    for (const r of rows) cache.set(r.w, r.l);
  }
  return cache;
}

export interface Marker {
  /** The text with every matching word between MARK_OPEN and MARK_CLOSE. */
  mark(text: string): string;
}

const NOTHING: Marker = { mark: (text) => text };
/** Letters a candidate word shares with the start of a query lexeme (see pgMarker). */
const STEM_LEAD = 2;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Compiled once: a Unicode property class costs V8 about a millisecond to compile, so per-query
// patterns hold only the query's letters and word boundaries are checked with these.
const ENDS_IN_WORD = /[\p{L}\p{N}\p{M}]$/u;
const WORD_REST = /[\p{L}\p{N}\p{M}]*/uy;

/**
 * `text` with each accented letter replaced by its base letter, code unit for code unit, so offsets
 * into it are offsets into `text`: leads come from lexemes the index configuration has folded
 * (`unaccent`), and "Élan" must be found by the lead "el" of its lexeme "elan".
 */
function foldAccents(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the fast path
  if (!/[^\u0000-\u007f]/.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    out += c < '\u00c0' ? c : c.normalize('NFD')[0];
  }
  return out;
}

/** Each word of `text` that starts with a match of `lead` (a global pattern): its offsets. */
function* wordsLed(text: string, lead: RegExp): Generator<[number, number]> {
  lead.lastIndex = 0;
  for (let m = lead.exec(text); m; m = lead.exec(text)) {
    const start = m.index;
    if (start > 0 && ENDS_IN_WORD.test(text.slice(Math.max(0, start - 2), start))) continue;
    WORD_REST.lastIndex = start;
    WORD_REST.exec(text);
    const end = WORD_REST.lastIndex;
    yield [start, end];
    lead.lastIndex = end;
  }
}

/**
 * A marker for the texts of one page: words whose lexemes are among the
 * query's positive lexemes (or start with a prefix unit's lexeme) are marked;
 * phrase words wherever they occur, as ts_headline did. Only words starting
 * with the first letters of a query lexeme are looked up (a stem keeps the
 * start of its word: comput ← computing, happi ← happy; accents are folded
 * before comparing, as the lexemes are); an irregular word whose stem starts
 * otherwise (die ← dying) is found by the search but left unmarked.
 */
export async function pgMarker(db: Kdb, tokenizer: Tokenizer, query: ParsedQuery, texts: string[]): Promise<Marker> {
  const q = forWords(query);
  if (!q) return NOTHING;
  const units = q.groups.flat();
  const queryLex = await lexemesOf(
    db,
    tokenizer,
    units.flatMap((u) => u.words),
  );
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const u of units) {
    u.words.forEach((w, i) => {
      for (const l of queryLex.get(w) ?? []) {
        if (u.prefix && i === u.words.length - 1) prefixes.push(l);
        else exact.add(l);
      }
    });
  }
  const leads = [...new Set([...exact, ...prefixes].map((l) => [...l].slice(0, STEM_LEAD).join('')))].filter(Boolean);
  if (!leads.length) return NOTHING;
  const lead = new RegExp(leads.map(escapeRegExp).join('|'), 'gi');
  const words = new Set<string>();
  for (const t of texts) for (const [s, e] of wordsLed(foldAccents(t), lead)) words.add(t.slice(s, e));
  const lex = await lexemesOf(db, tokenizer, words);
  const found = new Set(
    [...words].filter((w) => (lex.get(w) ?? []).some((l) => exact.has(l) || prefixes.some((p) => l.startsWith(p)))),
  );
  if (!found.size) return NOTHING;
  return {
    mark(text) {
      let out = '';
      let at = 0;
      for (const [s, e] of wordsLed(foldAccents(text), lead)) {
        const word = text.slice(s, e);
        if (!found.has(word)) continue;
        out += `${text.slice(at, s)}${MARK_OPEN}${word}${MARK_CLOSE}`;
        at = e;
      }
      return at ? out + text.slice(at) : text;
    },
  };
}

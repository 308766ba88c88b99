import type { Tier } from './model.js';
import { forWords, type ParsedQuery } from './query.js';

/**
 * Keys of the head lists (see heads.ts): what a one-unit query asks the index
 * for, computed from a document's tokens exactly as its engine stored them.
 *
 *   term      a term as indexed (stemmed under `porter unicode61`): `run`
 *   prefix    3 or 4 leading characters of terms, for `run*`, `runn*`: `run*`
 *   pair      two terms next to each other, for the phrase `"running dogs"`: `run dog`
 *
 * A term is letters, digits and marks only (both engines split on anything
 * else), so a key ending in `*` is always a prefix and one with a space a pair.
 */
export const MIN_PREFIX = 3;
export const MAX_PREFIX = 4;

const TIER_INDEX: Record<Tier, number> = { a: 0, b: 1, c: 2, d: 3 };

/** A document's tokens as its engine indexed them. */
export interface DocTokens {
  /** The engine's document handle (SQLite rowid of `<t>_docs`, PostgreSQL `doc` of `<t>`). */
  doc: number;
  /** The entry the document is of. */
  entry: string;
  locale: string;
  live: boolean;
  current: boolean;
  /** Tokens counted for ranking (bm25's and ts_rank_cd's document length). */
  length: number;
  /** Each token, in index order: its term, the tier (weight class) it was indexed in, its position. */
  terms: string[];
  tiers: Tier[];
  positions: number[];
  /**
   * Which neighbours a phrase matches across: FTS5 matches a phrase within a column (a tier), so
   * `tier` needs the same tier and the next position; PostgreSQL numbers the positions of a whole
   * document, so `document` needs the next position only.
   */
  adjacency: 'tier' | 'document';
}

/** Occurrences per tier (a, b, c, d). */
export type TierCounts = [number, number, number, number];

export const prefixKey = (prefix: string) => `${prefix}*`;
export const isPrefixKey = (key: string) => key.endsWith('*');
export const pairKey = (first: string, second: string) => `${first} ${second}`;
export const isPairKey = (key: string) => key.includes(' ');

/** A term's prefix keys (3 and 4 characters, counted in code points as the engines count them). */
const prefixCache = new Map<string, string[]>();
const PREFIX_CACHE_MAX = 100_000;

function prefixKeysOf(term: string): string[] {
  let keys = prefixCache.get(term);
  if (!keys) {
    const chars = [...term];
    keys = [];
    for (let n = MIN_PREFIX; n <= Math.min(MAX_PREFIX, chars.length); n++)
      keys.push(prefixKey(chars.slice(0, n).join('')));
    if (prefixCache.size >= PREFIX_CACHE_MAX) prefixCache.clear();
    prefixCache.set(term, keys);
  }
  return keys;
}

/** Every key of a document (or those of `only`) with its occurrences per tier. */
export function keyCounts(doc: DocTokens, only?: ReadonlySet<string>): Map<string, TierCounts> {
  const out = new Map<string, TierCounts>();
  const add = (key: string, tier: number) => {
    if (only && !only.has(key)) return;
    let c = out.get(key);
    if (!c) {
      c = [0, 0, 0, 0];
      out.set(key, c);
    }
    c[tier]++;
  };
  for (let i = 0; i < doc.terms.length; i++) {
    const term = doc.terms[i];
    const tier = TIER_INDEX[doc.tiers[i]];
    add(term, tier);
    for (const key of prefixKeysOf(term)) add(key, tier);
    // A pair counts in the tier of its first word; a common pair is made of common words.
    const before = doc.terms[i - 1];
    if (i > 0 && (!only || (only.has(before) && only.has(term))) && adjacent(doc, i - 1, i)) {
      add(pairKey(before, term), TIER_INDEX[doc.tiers[i - 1]]);
    }
  }
  return out;
}

function adjacent(doc: DocTokens, a: number, b: number): boolean {
  if (doc.positions[b] !== doc.positions[a] + 1) return false;
  return doc.adjacency === 'document' || doc.tiers[a] === doc.tiers[b];
}

/**
 * The key of a one-unit query, given the terms its engine made of its words:
 * a term; for `word*` the prefix key when the term is 3 or 4 characters long;
 * for a two-word phrase the pair. Null when the unit has no such key.
 */
export function queryKey(terms: string[], prefix: boolean): string | null {
  if (terms.length === 2 && !prefix) return pairKey(terms[0], terms[1]);
  if (terms.length !== 1) return null;
  const [term] = terms;
  if (!prefix) return term;
  const n = [...term].length;
  return n >= MIN_PREFIX && n <= MAX_PREFIX ? prefixKey(term) : null;
}

/** Document frequencies of prefix keys, from those of terms (an upper bound: a document may hold several). */
export function prefixFrequencies(terms: Iterable<[string, number]>, cap: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [term, df] of terms) {
    const chars = [...term];
    for (let n = MIN_PREFIX; n <= Math.min(MAX_PREFIX, chars.length); n++) {
      const key = prefixKey(chars.slice(0, n).join(''));
      out.set(key, Math.min(cap, (out.get(key) ?? 0) + df));
    }
  }
  return out;
}

/**
 * The unit of a query that is one word, one `word*` or one two-word phrase,
 * and nothing else: the queries head lists answer.
 */
export function singleUnit(query: ParsedQuery): { words: string[]; prefix: boolean } | null {
  const q = forWords(query);
  if (!q || q.exclude.length || q.groups.length !== 1 || q.groups[0].length !== 1) return null;
  const unit = q.groups[0][0];
  const fits = unit.words.length === 1 || (unit.words.length === 2 && !unit.prefix);
  return fits ? { words: unit.words, prefix: unit.prefix } : null;
}

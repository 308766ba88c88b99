import { describe, expect, it } from 'vitest';
import { parseTsvector, tsvectorTokens } from '../../../src/services/search/engine-postgres-heads.js';
import { readVarints } from '../../../src/services/search/engine-sqlite-heads.js';
import {
  type DocTokens,
  keyCounts,
  prefixFrequencies,
  queryKey,
  singleUnit,
} from '../../../src/services/search/head-keys.js';
import { spread } from '../../../src/services/search/heads.js';
import { parseQuery } from '../../../src/services/search/query.js';

const doc = (terms: string[], tiers: DocTokens['tiers'], positions: number[], adjacency: DocTokens['adjacency']) =>
  ({
    doc: 1,
    entry: 'e',
    locale: 'en',
    live: true,
    current: true,
    length: terms.length,
    terms,
    tiers,
    positions,
    adjacency,
  }) as DocTokens;

describe('head list keys', () => {
  it('count terms, 3–4 letter prefixes and neighbouring pairs per weight class', () => {
    const d = doc(['running', 'dog', 'run', 'dog'], ['a', 'a', 'b', 'b'], [0, 1, 0, 1], 'tier');
    const counts = keyCounts(d);
    expect(counts.get('dog')).toEqual([1, 1, 0, 0]);
    expect(counts.get('run*')).toEqual([1, 1, 0, 0]);
    expect(counts.get('runn*')).toEqual([1, 0, 0, 0]);
    expect(counts.has('ru*')).toBe(false);
    expect(counts.has('dog*')).toBe(true);
    expect(counts.get('running dog')).toEqual([1, 0, 0, 0]);
    expect(counts.get('run dog')).toEqual([0, 1, 0, 0]);
    // FTS5 matches phrases within a column: the last word of one tier and the first of the next are no pair.
    expect(counts.has('dog run')).toBe(false);
    // PostgreSQL numbers positions across the whole document: there they are.
    const pg = doc(['running', 'dog', 'run', 'dog'], ['a', 'a', 'b', 'b'], [1, 2, 3, 4], 'document');
    expect(keyCounts(pg).get('dog run')).toEqual([1, 0, 0, 0]);
    // Gaps in positions break pairs.
    expect(keyCounts(doc(['a1', 'b1'], ['a', 'a'], [1, 3], 'document')).has('a1 b1')).toBe(false);
    expect([...keyCounts(d, new Set(['dog', 'run', 'run dog'])).keys()].sort()).toEqual(['dog', 'run', 'run dog']);
    // A pair of words without lists is never counted as common.
    expect([...keyCounts(d, new Set(['dog', 'run dog'])).keys()]).toEqual(['dog']);
  });

  it('count prefixes in characters, not UTF-16 units', () => {
    const counts = keyCounts(doc(['𝔞𝔟𝔠𝔡𝔢'], ['a'], [0], 'tier'));
    expect(counts.has('𝔞𝔟𝔠*')).toBe(true);
    expect(counts.has('𝔞𝔟𝔠𝔡*')).toBe(true);
  });

  it('turn the terms of a query unit into its key', () => {
    expect(queryKey(['run'], false)).toBe('run');
    expect(queryKey(['run'], true)).toBe('run*');
    expect(queryKey(['runn'], true)).toBe('runn*');
    expect(queryKey(['running'], true)).toBeNull();
    expect(queryKey(['ru'], true)).toBeNull();
    expect(queryKey(['run', 'dog'], false)).toBe('run dog');
    expect(queryKey(['run', 'dog'], true)).toBeNull();
    expect(queryKey(['a', 'b', 'c'], false)).toBeNull();
    expect(queryKey([], false)).toBeNull();
  });

  it('answer only one word, one prefix or one two-word phrase from lists', () => {
    expect(singleUnit(parseQuery('dogs'))).toEqual({ words: ['dogs'], prefix: false });
    expect(singleUnit(parseQuery('dog*'))).toEqual({ words: ['dog'], prefix: true });
    expect(singleUnit(parseQuery('"running dogs"'))).toEqual({ words: ['running', 'dogs'], prefix: false });
    expect(singleUnit(parseQuery('e-mail'))).toEqual({ words: ['e', 'mail'], prefix: false });
    for (const q of ['dogs cats', 'dogs OR cats', 'dogs -cats', '"a b c"', 'a b*', '...']) {
      expect(singleUnit(parseQuery(q)), q).toBeNull();
    }
  });

  it('bound prefix frequencies by the sum of their terms', () => {
    const f = prefixFrequencies(
      [
        ['running', 5],
        ['runner', 7],
        ['rut', 2],
      ],
      10,
    );
    expect(f.get('run*')).toBe(10);
    expect(f.get('runn*')).toBe(10);
    expect(f.get('rut*')).toBe(2);
  });

  it('sample handles evenly', () => {
    expect(spread(1, 5, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(spread(1, 100, 4)).toEqual([1, 34, 67, 100]);
    expect(spread(5, 1, 3)).toEqual([]);
  });
});

describe('engine token readers', () => {
  it("read PostgreSQL's tsvector text: lexemes, positions, weights, quoting", () => {
    expect(parseTsvector(`'dog':2B,5 'it''s':1A 'x\\\\y':3C 'bare'`)).toEqual([
      { lexeme: 'dog', positions: [2, 5], tiers: ['b', 'd'] },
      { lexeme: "it's", positions: [1], tiers: ['a'] },
      { lexeme: 'x\\y', positions: [3], tiers: ['c'] },
      { lexeme: 'bare', positions: [], tiers: [] },
    ]);
    const t = tsvectorTokens(`'run':1A,3B 'dog':2A`, { doc: 7, entry: 'e', locale: 'en', live: true, current: false });
    expect(t).toMatchObject({ terms: ['run', 'dog', 'run'], tiers: ['a', 'a', 'b'], positions: [1, 2, 3], length: 3 });
  });

  it("read SQLite's variable-length integers (FTS5's averages record)", () => {
    expect(readVarints(Uint8Array.from([0x02, 0x06, 0x04]))).toEqual([2, 6, 4]);
    expect(readVarints(Uint8Array.from([0x81, 0x00, 0x7f]))).toEqual([128, 127]);
    expect(readVarints(Uint8Array.from([0x82, 0x80, 0x01]))).toEqual([(2 * 128 + 0) * 128 + 1]);
    expect(readVarints(Uint8Array.from([]))).toEqual([]);
  });
});

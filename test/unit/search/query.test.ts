import { describe, expect, it } from 'vitest';
import { ftsExpression, suggestExpression } from '../../../src/services/search/engine-sqlite.js';
import { forTrigrams, forWords, parseQuery } from '../../../src/services/search/query.js';

const words = (q: string) =>
  parseQuery(q).groups.map((g) => g.map((u) => `${u.words.join(' ')}${u.prefix ? '*' : ''}`));

describe('search query language', () => {
  it('reads words, phrases, prefixes, OR and exclusions', () => {
    expect(words('fast "red car" comp* cats OR dogs -slow')).toEqual([
      ['fast'],
      ['red car'],
      ['comp*'],
      ['cats', 'dogs'],
    ]);
    expect(parseQuery('fast -slow -"very old"').exclude.map((u) => u.raw)).toEqual(['slow', 'very old']);
  });

  it('treats every other operator as text', () => {
    expect(words('NEAR(a b) title:foo ^x a AND b NOT c (x) & <-> :*')).toEqual([
      ['NEAR a'],
      ['b'],
      ['title foo'],
      ['x'],
      ['a'],
      ['AND'],
      ['b'],
      ['NOT'],
      ['c'],
      ['x'],
      [''],
      [''],
      ['*'],
    ]);
    expect(ftsExpression(parseQuery('NEAR(a b) title:foo & <->'), 'porter unicode61')).toBe(
      '"NEAR a" AND "b" AND "title foo"',
    );
    expect(ftsExpression(parseQuery('NEAR(a b) title:foo & <->'), 'trigram')).toBe(
      '"NEAR(a" AND "title:foo" AND "<->"',
    );
  });

  it('survives unbalanced quotes, stray OR and lone minus signs', () => {
    expect(words('"unclosed phrase')).toEqual([['unclosed phrase']]);
    expect(words('OR a OR')).toEqual([['a']]);
    expect(words('a OR OR b')).toEqual([['a', 'b']]);
    expect(words('- a')).toEqual([[''], ['a']]);
    // Inside an OR chain a minus sign is just text: "a or not b" cannot run on FTS5.
    expect(parseQuery('a OR -b').exclude).toEqual([]);
  });

  it('drops units a tokenizer cannot match; nothing positive left means no query', () => {
    expect(forWords(parseQuery('*** ---'))).toBeNull();
    expect(forWords(parseQuery('-only'))).toBeNull();
    expect(forWords(parseQuery('rock & roll'))?.groups.map((g) => g[0].raw)).toEqual(['rock', 'roll']);
    expect(forTrigrams(parseQuery('ab'))).toBeNull();
    expect(forTrigrams(parseQuery('東京'))).toBeNull();
    expect(forTrigrams(parseQuery('東京都'))?.groups[0][0].raw).toBe('東京都');
    // Code points, not UTF-16 units: three emoji are three characters.
    expect(forTrigrams(parseQuery('😀😀'))).toBeNull();
    expect(forTrigrams(parseQuery('😀😀😀'))).not.toBeNull();
  });

  it('refuses queries past the size limits with a 400 naming q', () => {
    const many = Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ');
    let caught: unknown;
    try {
      parseQuery(many);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: ['q'] }] } });
    expect(() => parseQuery(Array.from({ length: 32 }, (_, i) => `w${i}`).join(' '))).not.toThrow();
  });

  it('compiles to FTS5 with every word quoted', () => {
    expect(ftsExpression(parseQuery('fast "red car" comp* a OR b -slow'), 'porter unicode61')).toBe(
      '("fast" AND "red car" AND "comp"* AND ("a" OR "b")) NOT ("slow")',
    );
    expect(ftsExpression(parseQuery('say "hi"" there'), 'unicode61')).toBe('"say" AND "hi" AND "there"');
    expect(ftsExpression(parseQuery('ab "x"" yz" abc'), 'trigram')).toBe('"abc"');
    expect(ftsExpression(parseQuery('"say ""hello"'), 'trigram')).toBe('"say" AND "hello"');
    expect(ftsExpression(parseQuery('a -"b c"'), 'porter unicode61')).toBe('("a") NOT ("b c")');
    expect(suggestExpression(parseQuery('head cm'), 'porter unicode61')).toBe('"head"* AND "cm"*');
  });
});

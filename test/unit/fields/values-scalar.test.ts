import { describe, expect, it } from 'vitest';
import { type FieldDefinition, validateFieldValue } from '../../../src/services/fields/index.js';
import { field } from './helpers.js';

function check(def: FieldDefinition, value: unknown) {
  return validateFieldValue(def, value, ['data', def.slug], { mode: 'create' });
}

function codes(def: FieldDefinition, value: unknown): string[] {
  return check(def, value).issues.map((i) => i.code);
}

describe('string, text and slug values', () => {
  const title = field('string', { slug: 'title', validation: { minLength: 2, maxLength: 5 } });

  it('accepts a string within the bounds', () => {
    expect(check(title, 'abc')).toEqual({ value: 'abc', issues: [] });
  });

  it('rejects non-strings', () => {
    for (const bad of [1, true, ['a'], { a: 1 }]) expect(codes(title, bad)).toEqual(['invalid_type']);
  });

  it('counts length in code points, not UTF-16 units', () => {
    expect(codes(title, '😀😀😀😀😀')).toEqual([]);
    expect(codes(title, '😀😀😀😀😀😀')).toEqual(['too_big']);
    expect(codes(title, '😀')).toEqual(['too_small']);
  });

  it('reports the path of the field', () => {
    expect(check(title, 'abcdef').issues[0]?.path).toEqual(['data', 'title']);
  });

  it('applies pattern as a whole-value match', () => {
    const code = field('string', { validation: { pattern: '[A-Z]{3}' } });
    expect(codes(code, 'ABC')).toEqual([]);
    expect(codes(code, 'xABCx')).toEqual(['invalid_format']);
    expect(codes(code, 'AB')).toEqual(['invalid_format']);
  });

  it('treats a pattern with alternation as one group', () => {
    const def = field('string', { validation: { pattern: 'a|b' } });
    expect(codes(def, 'a')).toEqual([]);
    expect(codes(def, 'ab')).toEqual(['invalid_format']);
  });

  it('skips minLength and pattern for an empty optional string but keeps it', () => {
    const def = field('string', { validation: { minLength: 3, pattern: '[a-z]+' } });
    expect(check(def, '')).toEqual({ value: '', issues: [] });
  });

  it('rejects a blank value on a required field', () => {
    const def = field('text', { required: true });
    expect(codes(def, '   ')).toEqual(['required']);
    expect(codes(def, '')).toEqual(['required']);
    expect(codes(def, null)).toEqual(['required']);
  });

  it('stores slug values as given (not sanitised)', () => {
    expect(check(field('slug'), 'Hello World').value).toBe('Hello World');
  });
});

describe('url values', () => {
  const link = field('url', { slug: 'link' });

  it('accepts safe URLs and returns them unchanged', () => {
    expect(check(link, 'https://example.com/a')).toEqual({ value: 'https://example.com/a', issues: [] });
  });

  it('rejects unsafe URLs with invalid_url', () => {
    const result = check(link, 'javascript:alert(1)');
    expect(result.issues).toEqual([{ path: ['data', 'link'], code: 'invalid_url', message: expect.any(String) }]);
  });

  it('normalises an empty string on an optional url to null', () => {
    expect(check(link, '')).toEqual({ value: null, issues: [] });
  });

  it('rejects an empty string on a required url', () => {
    expect(codes({ ...link, required: true }, '')).toEqual(['required']);
  });

  it('keeps scheme-less values only when allowed (seeds, plugin updates)', () => {
    expect(codes(link, 'about/')).toEqual(['invalid_url']);
    const lenient = validateFieldValue(link, 'about/', ['data', 'link'], { mode: 'create', allowSchemelessUrls: true });
    expect(lenient.issues).toEqual([]);
  });
});

describe('number and integer values', () => {
  it('accepts finite numbers and enforces min/max', () => {
    const def = field('number', { validation: { min: 0, max: 1.5 } });
    expect(codes(def, 1.25)).toEqual([]);
    expect(codes(def, -0.1)).toEqual(['too_small']);
    expect(codes(def, 1.6)).toEqual(['too_big']);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, '1', '1.5', true, [1]])('rejects %s as a number', (v) => {
    expect(codes(field('number'), v)).toEqual(['invalid_type']);
  });

  it('accepts only safe integers for integer', () => {
    const def = field('integer', { validation: { min: 1 } });
    expect(codes(def, 3)).toEqual([]);
    expect(codes(def, 3.5)).toEqual(['invalid_type']);
    expect(codes(def, 2 ** 53)).toEqual(['invalid_type']);
    expect(codes(def, 0)).toEqual(['too_small']);
  });

  it('accepts 0 on a required number (zero is a value)', () => {
    expect(codes(field('integer', { required: true }), 0)).toEqual([]);
  });
});

describe('boolean values', () => {
  it('accepts true and false only', () => {
    expect(codes(field('boolean'), false)).toEqual([]);
    expect(codes(field('boolean', { required: true }), false)).toEqual([]);
    for (const bad of [0, 1, 'true', 'false']) expect(codes(field('boolean'), bad)).toEqual(['invalid_type']);
  });
});

describe('datetime values', () => {
  const when = field('datetime', { slug: 'when' });

  it('stores the normalised UTC form', () => {
    expect(check(when, '2026-01-02T05:04:05+02:00')).toEqual({ value: '2026-01-02T03:04:05.000Z', issues: [] });
  });

  it('rejects values without an offset', () => {
    expect(codes(when, '2026-01-02T03:04:05')).toEqual(['invalid_datetime']);
  });

  it('rejects non-strings and normalises an empty string to null', () => {
    expect(codes(when, 1767323045000)).toEqual(['invalid_type']);
    expect(check(when, '')).toEqual({ value: null, issues: [] });
  });
});

describe('select and multiSelect values', () => {
  const color = field('select', { validation: { options: ['red', 'green'] } });
  const tags = field('multiSelect', { slug: 'tags', validation: { options: ['a', 'b', 'c'] } });

  it('accepts an option and rejects anything else', () => {
    expect(codes(color, 'red')).toEqual([]);
    expect(codes(color, 'blue')).toEqual(['invalid_option']);
    expect(codes(color, 'Red')).toEqual(['invalid_option']);
    expect(codes(color, 1)).toEqual(['invalid_type']);
  });

  it('accepts any string when no options are defined', () => {
    expect(codes(field('select'), 'anything')).toEqual([]);
  });

  it('normalises an empty select to null', () => {
    expect(check(color, '')).toEqual({ value: null, issues: [] });
    expect(codes({ ...color, required: true }, '')).toEqual(['required']);
  });

  it('checks each multiSelect item with its index in the path', () => {
    const result = check(tags, ['a', 'x', 'a', 3]);
    expect(result.issues.map((i) => [i.path, i.code])).toEqual([
      [['data', 'tags', 1], 'invalid_option'],
      [['data', 'tags', 2], 'duplicate'],
      [['data', 'tags', 3], 'invalid_type'],
    ]);
  });

  it('requires an array for multiSelect and a non-empty one when required', () => {
    expect(codes(tags, 'a')).toEqual(['invalid_type']);
    expect(codes({ ...tags, required: true }, [])).toEqual(['required']);
    expect(codes(tags, [])).toEqual([]);
  });
});

describe('legacy reference values', () => {
  const single = field('reference', { slug: 'ref' });
  const multiple = field('reference', { slug: 'refs', options: { allowMultiple: true } });

  it('stores one entry ID as text', () => {
    expect(check(single, '01J0ABC')).toEqual({ value: '01J0ABC', issues: [] });
    expect(codes(single, ['01J0ABC'])).toEqual(['invalid_type']);
    expect(check(single, '').value).toBeNull();
  });

  it('stores an array of unique IDs with options.allowMultiple', () => {
    expect(codes(multiple, ['a', 'b'])).toEqual([]);
    expect(codes(multiple, 'a')).toEqual(['invalid_type']);
    expect(codes(multiple, ['a', 'a'])).toEqual(['duplicate']);
    expect(codes(multiple, ['a', ''])).toEqual(['invalid_type']);
  });

  it('caps the array at 1000 IDs', () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `id${i}`);
    expect(codes(multiple, ids)).toEqual(['too_big']);
    expect(codes(multiple, ids.slice(0, 1000))).toEqual([]);
  });

  it('refuses values for a relation-bound reference (links go in references)', () => {
    const bound = field('reference', { slug: 'author', validation: { targetCollection: 'people' } });
    expect(codes(bound, 'x')).toEqual(['use_references']);
  });
});

describe('json values', () => {
  const data = field('json', { slug: 'data' });

  it('accepts any JSON value', () => {
    for (const ok of [{ a: [1, 'x', null, true, { b: {} }] }, [1, 2], 'text', 42, false]) {
      expect(codes(data, ok)).toEqual([]);
    }
  });

  it('rejects what JSON cannot carry, pointing at the offending part', () => {
    const result = check(data, { a: { when: new Date(0) }, n: Number.NaN, f: () => 1, b: 10n, u: undefined });
    expect(result.issues.map((i) => i.path)).toEqual([
      ['data', 'data', 'a', 'when'],
      ['data', 'data', 'n'],
      ['data', 'data', 'f'],
      ['data', 'data', 'b'],
      ['data', 'data', 'u'],
    ]);
  });

  it('rejects circular structures and excessive nesting', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(codes(data, loop)).toEqual(['invalid_json']);
    let deep: unknown = 1;
    for (let i = 0; i < 150; i++) deep = [deep];
    expect(codes(data, deep)).toEqual(['too_deep']);
  });

  it('allows shared (non-circular) references', () => {
    const shared = { x: 1 };
    expect(codes(data, { a: shared, b: shared })).toEqual([]);
  });
});

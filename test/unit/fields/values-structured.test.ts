import { describe, expect, it } from 'vitest';
import {
  type BlockTypeVersionLookup,
  type FieldDefinition,
  type ValidateOptions,
  validateFieldValue,
} from '../../../src/services/fields/index.js';
import { field } from './helpers.js';

function issues(def: FieldDefinition, value: unknown, options: Partial<ValidateOptions> = {}) {
  return validateFieldValue(def, value, ['data', def.slug], { mode: 'create', ...options }).issues.map((i) => [
    i.path,
    i.code,
  ]);
}

describe('repeater values', () => {
  const links = field('repeater', {
    slug: 'links',
    validation: {
      minItems: 1,
      maxItems: 2,
      subFields: [
        { slug: 'label', label: 'Label', type: 'string', required: true },
        { slug: 'href', label: 'Link', type: 'url' },
        { slug: 'kind', label: 'Kind', type: 'select', options: ['internal', 'external'] },
        { slug: 'when', label: 'When', type: 'datetime' },
      ],
    },
  });

  it('validates rows and returns normalised copies', () => {
    const rows = [{ label: 'Home', href: '/', kind: 'internal', when: '2026-01-02T05:00:00+02:00' }];
    const result = validateFieldValue(links, rows, ['data', 'links'], { mode: 'create' });
    expect(result.issues).toEqual([]);
    expect(result.value).toEqual([{ label: 'Home', href: '/', kind: 'internal', when: '2026-01-02T03:00:00.000Z' }]);
    expect(rows[0]?.when).toBe('2026-01-02T05:00:00+02:00');
  });

  it('applies sub-field rules with row paths', () => {
    const rows = [
      { href: 'javascript:alert(1)', kind: 'other', extra: 1 },
      { label: '  ', href: '' },
    ];
    expect(issues(links, rows)).toEqual([
      [['data', 'links', 0, 'href'], 'invalid_url'],
      [['data', 'links', 0, 'kind'], 'invalid_option'],
      [['data', 'links', 0, 'extra'], 'unknown_field'],
      [['data', 'links', 0, 'label'], 'required'],
      [['data', 'links', 1, 'label'], 'required'],
    ]);
  });

  it('enforces minItems and maxItems', () => {
    expect(issues(links, [])).toEqual([[['data', 'links'], 'too_small']]);
    const row = { label: 'x' };
    expect(issues(links, [row, row, row])).toEqual([[['data', 'links'], 'too_big']]);
  });

  it('needs an array of objects', () => {
    expect(issues(links, { label: 'x' })).toEqual([[['data', 'links'], 'invalid_type']]);
    expect(issues(links, ['x'])).toEqual([[['data', 'links', 0], 'invalid_type']]);
  });

  it('treats null as clearing the value', () => {
    const optional = field('repeater', {
      slug: 'links',
      validation: { subFields: [{ slug: 'a', label: 'A', type: 'string' }] },
    });
    expect(validateFieldValue(optional, null, ['data', 'links'], { mode: 'update' })).toEqual({
      value: null,
      issues: [],
    });
  });

  it('checks image sub-fields like image fields', () => {
    const gallery = field('repeater', {
      slug: 'gallery',
      validation: { subFields: [{ slug: 'photo', label: 'Photo', type: 'image', required: true }] },
    });
    expect(issues(gallery, [{ photo: { id: 'm1' } }, { photo: { src: '/x.png' } }])).toEqual([
      [['data', 'gallery', 1, 'photo', 'id'], 'required'],
    ]);
  });
});

/** Block types: hero v1 {title}, hero v2 {title, subtitle}; quote v1 {text}; old v1 {note}. */
const lookup: BlockTypeVersionLookup = {
  fields(slug, version) {
    const title = field('string', { slug: 'title', label: 'Title', required: true, validation: { maxLength: 10 } });
    const table: Record<string, FieldDefinition[]> = {
      'hero@1': [title],
      'hero@2': [title, field('text', { slug: 'subtitle', label: 'Subtitle' })],
      'quote@1': [field('portableText', { slug: 'text', label: 'Text' })],
      'old@1': [field('string', { slug: 'note', label: 'Note' })],
    };
    return table[`${slug}@${version}`];
  },
  activeVersion(slug) {
    return { hero: 2, quote: 1, old: 1 }[slug];
  },
};

describe('blocks values', () => {
  const content = field('blocks', {
    slug: 'content',
    validation: { allowedTypes: ['hero', 'quote'], retiredTypes: ['old'], maxItems: 4 },
  });
  const opts = { blockTypes: lookup };

  it('accepts blocks of allowed types at known versions', () => {
    const value = [
      { _type: 'hero', _version: 1, _key: 'a', title: 'Hi' },
      { _type: 'hero', _version: 2, _key: 'b', title: 'Hi', subtitle: 'there' },
      { _type: 'quote', _version: 1, _key: 'c', text: [] },
    ];
    const result = validateFieldValue(content, value, ['data', 'content'], { mode: 'create', ...opts });
    expect(result.issues).toEqual([]);
    expect(result.value).toEqual(value);
  });

  it('fills a missing _version with the active version', () => {
    const result = validateFieldValue(content, [{ _type: 'hero', _key: 'a', title: 'Hi' }], ['data', 'content'], {
      mode: 'create',
      ...opts,
    });
    expect(result.value).toEqual([{ _type: 'hero', _version: 2, _key: 'a', title: 'Hi' }]);
  });

  it('validates block fields against the block version, with paths into the block', () => {
    const value = [
      { _type: 'hero', _version: 1, _key: 'a', title: 'much too long title', subtitle: 'not in v1' },
      { _type: 'hero', _version: 2, _key: 'b' },
    ];
    expect(issues(content, value, opts)).toEqual([
      [['data', 'content', 0, 'title'], 'too_big'],
      [['data', 'content', 0, 'subtitle'], 'unknown_field'],
      [['data', 'content', 1, 'title'], 'required'],
    ]);
  });

  it('requires a unique non-empty _key', () => {
    const value = [
      { _type: 'quote', _version: 1, _key: 'a' },
      { _type: 'quote', _version: 1, _key: 'a' },
      { _type: 'quote', _version: 1 },
      { _type: 'quote', _version: 1, _key: '' },
    ];
    expect(issues(content, value, opts)).toEqual([
      [['data', 'content', 1, '_key'], 'duplicate'],
      [['data', 'content', 2, '_key'], 'required'],
      [['data', 'content', 3, '_key'], 'required'],
    ]);
  });

  it('rejects types that are not allowed and versions that do not exist', () => {
    const value = [
      { _type: 'gallery', _version: 1, _key: 'a' },
      { _type: 'hero', _version: 9, _key: 'b', title: 'x' },
      { _type: 'hero', _version: '2', _key: 'c', title: 'x' },
      { _key: 'd' },
    ];
    expect(issues(content, value, opts)).toEqual([
      [['data', 'content', 0, '_type'], 'invalid_block_type'],
      [['data', 'content', 1, '_version'], 'unknown_block_version'],
      [['data', 'content', 2, '_version'], 'invalid_type'],
      [['data', 'content', 3, '_type'], 'required'],
    ]);
  });

  it('rejects a new block of a retired type', () => {
    const value = [{ _type: 'old', _version: 1, _key: 'n', note: 'x' }];
    expect(issues(content, value, opts)).toEqual([[['data', 'content', 0, '_type'], 'retired_block_type']]);
  });

  it('keeps an existing block of a retired type (same _key and _type in previous data)', () => {
    const previous = { content: [{ _type: 'old', _version: 1, _key: 'k1', note: 'before' }] };
    const value = [
      { _type: 'old', _version: 1, _key: 'k1', note: 'edited' },
      { _type: 'hero', _version: 2, _key: 'k2', title: 'x' },
    ];
    expect(issues(content, value, { ...opts, mode: 'update', previous })).toEqual([]);
  });

  it('does not let a retired type reuse the _key of a block of another type', () => {
    const previous = { content: [{ _type: 'hero', _version: 2, _key: 'k1', title: 'x' }] };
    const value = [{ _type: 'old', _version: 1, _key: 'k1', note: 'sneaky' }];
    expect(issues(content, value, { ...opts, mode: 'update', previous })).toEqual([
      [['data', 'content', 0, '_type'], 'retired_block_type'],
    ]);
  });

  it('enforces maxItems, and 100 at most even without maxItems', () => {
    const block = (i: number) => ({ _type: 'quote', _version: 1, _key: `k${i}` });
    expect(issues(content, [0, 1, 2, 3, 4].map(block), opts)).toEqual([[['data', 'content'], 'too_big']]);
    const open = field('blocks', { slug: 'content', validation: { allowedTypes: ['quote'] } });
    const many = Array.from({ length: 101 }, (_, i) => block(i));
    expect(issues(open, many, opts)).toEqual([[['data', 'content'], 'too_big']]);
    expect(issues(open, many.slice(0, 100), opts)).toEqual([]);
  });

  it('enforces minItems, also on the default empty array', () => {
    const atLeastOne = field('blocks', { slug: 'content', validation: { allowedTypes: ['quote'], minItems: 1 } });
    expect(issues(atLeastOne, [], opts)).toEqual([[['data', 'content'], 'too_small']]);
    expect(issues(atLeastOne, null, opts)).toEqual([[['data', 'content'], 'too_small']]);
  });

  it('normalises null to an empty array', () => {
    expect(validateFieldValue(content, null, ['data', 'content'], { mode: 'update', ...opts })).toEqual({
      value: [],
      issues: [],
    });
  });

  it('fails every block clearly without a block type lookup', () => {
    const value = [{ _type: 'hero', _version: 2, _key: 'a', title: 'x' }];
    expect(issues(content, value)).toEqual([[['data', 'content', 0], 'block_types_unavailable']]);
  });

  it('rejects non-arrays and non-object blocks', () => {
    expect(issues(content, { _type: 'hero' }, opts)).toEqual([[['data', 'content'], 'invalid_type']]);
    expect(issues(content, ['hero'], opts)).toEqual([[['data', 'content', 0], 'invalid_type']]);
  });

  it('checks nested values inside blocks (unsafe link in a quote)', () => {
    const text = [
      { _type: 'block', children: [{ _type: 'span', text: 'x' }], markDefs: [{ _type: 'link', href: 'data:,x' }] },
    ];
    expect(issues(content, [{ _type: 'quote', _version: 1, _key: 'q', text }], opts)).toEqual([
      [['data', 'content', 0, 'text', 0, 'markDefs', 0, 'href'], 'invalid_url'],
    ]);
  });
});

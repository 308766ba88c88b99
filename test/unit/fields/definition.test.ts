import { describe, expect, it } from 'vitest';
import {
  blockDefinitionIssues,
  checkFieldDefinition,
  computeRetiredTypes,
  type FieldDefinition,
  fieldInputSchema,
  fieldUpdateSchema,
  normalizeFieldInput,
} from '../../../src/services/fields/index.js';
import { field } from './helpers.js';

type Pair = [(string | number)[], string];
const pairs = (def: FieldDefinition, opts?: Parameters<typeof checkFieldDefinition>[1]): Pair[] =>
  checkFieldDefinition(def, opts).map((i) => [i.path, i.code]);

describe('fieldInputSchema', () => {
  const ok = { slug: 'title', label: 'Title', type: 'string' };

  it('accepts a minimal and a full field', () => {
    expect(fieldInputSchema.safeParse(ok).success).toBe(true);
    const full = {
      ...ok,
      required: true,
      unique: true,
      searchable: true,
      indexed: true,
      translatable: false,
      defaultValue: 'x',
      validation: { maxLength: 10 },
      widget: 'color',
      options: { placeholder: 'x' },
      sortOrder: 3,
    };
    expect(fieldInputSchema.parse(full)).toEqual(full);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ ...ok, slug: 'status' }, 'reserved slug'],
    [{ ...ok, slug: 'locale' }, 'reserved system column'],
    [{ ...ok, slug: 'Title' }, 'upper case'],
    [{ ...ok, slug: '1st' }, 'leading digit'],
    [{ ...ok, slug: '_x' }, 'leading underscore'],
    [{ ...ok, slug: 'a'.repeat(64) }, 'slug over 63 chars'],
    [{ ...ok, label: '' }, 'empty label'],
    [{ ...ok, label: '   ' }, 'blank label'],
    [{ ...ok, label: 'x'.repeat(201) }, 'label over 200 chars'],
    [{ ...ok, type: 'richtext' }, 'unknown type'],
    [{ ...ok, required: 'yes' }, 'non-boolean flag'],
    [{ ...ok, validation: [] }, 'validation array'],
    [{ ...ok, colour: 'red' }, 'unknown key'],
    [{ slug: 'x', type: 'string' }, 'missing label'],
  ])('rejects %j (%s)', (input) => {
    expect(fieldInputSchema.safeParse(input).success).toBe(false);
  });

  it('accepts a 63-character slug', () => {
    expect(fieldInputSchema.safeParse({ ...ok, slug: 'a'.repeat(63) }).success).toBe(true);
  });

  it('fieldUpdateSchema makes everything optional but stays strict', () => {
    expect(fieldUpdateSchema.parse({})).toEqual({});
    expect(fieldUpdateSchema.parse({ label: 'New' })).toEqual({ label: 'New' });
    expect(fieldUpdateSchema.safeParse({ label: 'New', colour: 'red' }).success).toBe(false);
    expect(fieldUpdateSchema.safeParse({ slug: 'id' }).success).toBe(false);
  });
});

describe('normalizeFieldInput', () => {
  it('fills the documented defaults', () => {
    expect(normalizeFieldInput(fieldInputSchema.parse({ slug: 'a', label: 'A', type: 'text' }))).toEqual({
      slug: 'a',
      label: 'A',
      type: 'text',
      required: false,
      unique: false,
      searchable: false,
      indexed: false,
      translatable: true,
    });
  });

  it('keeps given values', () => {
    const def = normalizeFieldInput({ slug: 'a', label: 'A', type: 'text', translatable: false, sortOrder: 2 });
    expect(def.translatable).toBe(false);
    expect(def.sortOrder).toBe(2);
  });
});

describe('checkFieldDefinition: identity', () => {
  it('accepts a plain field', () => {
    expect(pairs(field('string'))).toEqual([]);
  });

  it('refuses reserved and malformed slugs and bad labels (for callers that bypass the schema)', () => {
    expect(pairs(field('string', { slug: 'created_at' }))).toEqual([[['slug'], 'reserved_slug']]);
    expect(pairs(field('string', { slug: 'Bad-Slug' }))).toEqual([[['slug'], 'invalid_slug']]);
    expect(pairs(field('string', { label: ' ' }))).toEqual([[['label'], 'invalid_label']]);
  });

  it('allows system column names inside block types', () => {
    expect(pairs(field('string', { slug: 'status' }), { context: 'block' })).toEqual([]);
  });

  it('rejects an unknown type', () => {
    expect(pairs({ ...field('string'), type: 'richtext' as FieldDefinition['type'] })).toEqual([
      [['type'], 'invalid_type'],
    ]);
  });
});

describe('checkFieldDefinition: validation keys per type', () => {
  it('names the allowed keys when a key is unknown', () => {
    const issues = checkFieldDefinition(field('string', { validation: { min: 1 } }));
    expect(issues).toEqual([
      {
        path: ['validation', 'min'],
        code: 'unknown_validation_key',
        message: expect.stringContaining('minLength, maxLength, pattern'),
      },
    ]);
    expect(pairs(field('boolean', { validation: { options: ['x'] } }))).toEqual([
      [['validation', 'options'], 'unknown_validation_key'],
    ]);
    expect(pairs(field('url', { validation: { maxLength: 10 } }))).toEqual([
      [['validation', 'maxLength'], 'unknown_validation_key'],
    ]);
  });

  it('string/text: lengths are non-negative integers, min <= max, pattern compiles', () => {
    expect(pairs(field('text', { validation: { minLength: 0, maxLength: 10, pattern: '\\p{L}+' } }))).toEqual([]);
    expect(pairs(field('string', { validation: { minLength: -1, maxLength: 1.5 } }))).toEqual([
      [['validation', 'minLength'], 'invalid_validation'],
      [['validation', 'maxLength'], 'invalid_validation'],
    ]);
    expect(pairs(field('string', { validation: { minLength: 5, maxLength: 2 } }))).toEqual([
      [['validation', 'minLength'], 'invalid_validation'],
    ]);
    expect(pairs(field('string', { validation: { pattern: '([a-z' } }))).toEqual([
      [['validation', 'pattern'], 'invalid_validation'],
    ]);
    expect(pairs(field('string', { validation: { pattern: 5 } }))).toEqual([
      [['validation', 'pattern'], 'invalid_validation'],
    ]);
  });

  it('treats null validation values as unset', () => {
    expect(pairs(field('string', { validation: { maxLength: null } }))).toEqual([]);
  });

  it('text: options.rows is an integer of at least 1', () => {
    expect(pairs(field('text', { options: { rows: 3 } }))).toEqual([]);
    expect(pairs(field('text', { options: { rows: 0 } }))).toEqual([[['options', 'rows'], 'invalid_validation']]);
  });

  it('number/integer: bounds are numbers (integers for integer), min <= max', () => {
    expect(pairs(field('number', { validation: { min: -1.5, max: 2.5 } }))).toEqual([]);
    expect(pairs(field('integer', { validation: { min: 1.5 } }))).toEqual([
      [['validation', 'min'], 'invalid_validation'],
    ]);
    expect(pairs(field('number', { validation: { max: '10' } }))).toEqual([
      [['validation', 'max'], 'invalid_validation'],
    ]);
    expect(pairs(field('number', { validation: { min: 3, max: 1 } }))).toEqual([
      [['validation', 'min'], 'invalid_validation'],
    ]);
  });

  it('select/multiSelect: options is a non-empty list of unique non-empty strings', () => {
    expect(pairs(field('select', { validation: { options: ['a', 'b'] } }))).toEqual([]);
    expect(pairs(field('multiSelect', { validation: { options: [] } }))).toEqual([
      [['validation', 'options'], 'invalid_validation'],
    ]);
    expect(pairs(field('select', { validation: { options: ['a', 'a', '', 3] } }))).toEqual([
      [['validation', 'options', 1], 'duplicate'],
      [['validation', 'options', 2], 'invalid_validation'],
      [['validation', 'options', 3], 'invalid_validation'],
    ]);
  });

  it('image/file: allowedMimeTypes are exact MIME types without wildcards', () => {
    expect(pairs(field('image', { validation: { allowedMimeTypes: ['image/png', 'image/svg+xml'] } }))).toEqual([]);
    expect(
      pairs(field('file', { validation: { allowedMimeTypes: ['image/*', 'pdf', '*/*', 'IMAGE/PNG', 'image/png'] } })),
    ).toEqual([
      [['validation', 'allowedMimeTypes', 0], 'invalid_validation'],
      [['validation', 'allowedMimeTypes', 1], 'invalid_validation'],
      [['validation', 'allowedMimeTypes', 2], 'invalid_validation'],
      [['validation', 'allowedMimeTypes', 4], 'duplicate'],
    ]);
    expect(pairs(field('image', { validation: { allowedMimeTypes: [] } }))).toEqual([
      [['validation', 'allowedMimeTypes'], 'invalid_validation'],
    ]);
  });

  it('image: options.darkVariant is a boolean', () => {
    expect(pairs(field('image', { options: { darkVariant: true } }))).toEqual([]);
    expect(pairs(field('image', { options: { darkVariant: 'yes' } }))).toEqual([
      [['options', 'darkVariant'], 'invalid_type'],
    ]);
  });
});

describe('checkFieldDefinition: reference', () => {
  it('accepts targetCollection (+ multiple), relation (+ relationSide) or neither', () => {
    expect(pairs(field('reference', { validation: { targetCollection: 'people', multiple: true } }))).toEqual([]);
    expect(pairs(field('reference', { validation: { relation: 'posts_author', relationSide: 'child' } }))).toEqual([]);
    expect(pairs(field('reference', { options: { allowMultiple: true } }))).toEqual([]);
  });

  it('refuses both targetCollection and relation', () => {
    expect(pairs(field('reference', { validation: { targetCollection: 'people', relation: 'r' } }))).toEqual([
      [['validation'], 'conflict'],
    ]);
  });

  it('accepts both when they are carried over unchanged from the stored field', () => {
    const stored = field('reference', { validation: { targetCollection: 'people', relation: 'posts_f' } });
    expect(pairs({ ...stored, label: 'New' }, { previous: stored })).toEqual([]);
  });

  it('ties multiple to targetCollection and relationSide to relation', () => {
    expect(pairs(field('reference', { validation: { relation: 'r', multiple: true } }))).toEqual([
      [['validation', 'multiple'], 'not_allowed'],
    ]);
    expect(pairs(field('reference', { validation: { targetCollection: 'p', relationSide: 'parent' } }))).toEqual([
      [['validation', 'relationSide'], 'not_allowed'],
    ]);
    expect(pairs(field('reference', { validation: { relation: 'r', relationSide: 'left' } }))).toEqual([
      [['validation', 'relationSide'], 'invalid_validation'],
    ]);
    expect(pairs(field('reference', { validation: { targetCollection: 'Bad Name' } }))).toEqual([
      [['validation', 'targetCollection'], 'invalid_validation'],
    ]);
  });

  it('options.allowMultiple is only for legacy references', () => {
    expect(
      pairs(field('reference', { validation: { targetCollection: 'p' }, options: { allowMultiple: true } })),
    ).toEqual([[['options', 'allowMultiple'], 'not_allowed']]);
  });

  it('relation-bound references cannot be indexed, unique, searchable or have a default', () => {
    const bound = field('reference', {
      validation: { targetCollection: 'people' },
      indexed: true,
      unique: true,
      searchable: true,
      defaultValue: 'x',
    });
    expect(pairs(bound).map(([p]) => p[0])).toEqual(['indexed', 'unique', 'searchable', 'defaultValue']);
  });

  it('legacy references can be indexed and unique', () => {
    expect(pairs(field('reference', { indexed: true, unique: true }))).toEqual([]);
  });
});

describe('checkFieldDefinition: repeater', () => {
  const sub = (extra: Record<string, unknown> = {}) => ({ slug: 'a', label: 'A', type: 'string', ...extra });

  it('accepts allowed sub-field types and select options', () => {
    const subFields = ['string', 'text', 'url', 'number', 'integer', 'boolean', 'datetime', 'image'].map((type, i) =>
      sub({ slug: `s${i}`, type, required: i % 2 === 0 }),
    );
    subFields.push(sub({ slug: 'choice', type: 'select', options: ['x', 'y'] }));
    expect(pairs(field('repeater', { validation: { subFields, minItems: 0, maxItems: 3 } }))).toEqual([]);
  });

  it('needs at least one sub-field', () => {
    expect(pairs(field('repeater'))).toEqual([[['validation'], 'required']]);
    expect(pairs(field('repeater', { validation: { subFields: [] } }))).toEqual([
      [['validation', 'subFields'], 'invalid_validation'],
    ]);
  });

  it.each(['repeater', 'portableText', 'reference', 'file', 'blocks', 'json', 'multiSelect'])(
    'refuses a %s sub-field',
    (type) => {
      expect(pairs(field('repeater', { validation: { subFields: [sub({ type })] } }))).toEqual([
        [['validation', 'subFields', 0, 'type'], 'invalid_validation'],
      ]);
    },
  );

  it('checks sub-field shape, unique slugs and options', () => {
    const subFields = [
      sub(),
      sub(),
      sub({ slug: 'b', label: '', extra: 1 }),
      sub({ slug: 'c', options: ['x'] }),
      sub({ slug: 'd', type: 'select', options: [] }),
      'x',
    ];
    expect(pairs(field('repeater', { validation: { subFields } }))).toEqual([
      [['validation', 'subFields', 1, 'slug'], 'duplicate'],
      [['validation', 'subFields', 2, 'extra'], 'unknown_key'],
      [['validation', 'subFields', 2, 'label'], 'invalid_validation'],
      [['validation', 'subFields', 3, 'options'], 'not_allowed'],
      [['validation', 'subFields', 4, 'options'], 'invalid_validation'],
      [['validation', 'subFields', 5], 'invalid_type'],
    ]);
  });

  it('minItems >= 0, maxItems >= 1 and >= minItems', () => {
    const v = (extra: Record<string, unknown>) => field('repeater', { validation: { subFields: [sub()], ...extra } });
    expect(pairs(v({ minItems: -1 }))).toEqual([[['validation', 'minItems'], 'invalid_validation']]);
    expect(pairs(v({ maxItems: 0 }))).toEqual([[['validation', 'maxItems'], 'invalid_validation']]);
    expect(pairs(v({ minItems: 3, maxItems: 2 }))).toEqual([[['validation', 'maxItems'], 'invalid_validation']]);
  });
});

describe('checkFieldDefinition: blocks', () => {
  const blocks = (validation: Record<string, unknown>, extra: Partial<FieldDefinition> = {}) =>
    field('blocks', { validation, ...extra });

  it('accepts allowedTypes with item limits', () => {
    expect(pairs(blocks({ allowedTypes: ['hero', 'quote'], minItems: 0, maxItems: 100 }))).toEqual([]);
  });

  it('needs allowedTypes, and a new field needs at least one', () => {
    expect(pairs(blocks({}))).toEqual([[['validation', 'allowedTypes'], 'required']]);
    expect(pairs(field('blocks'))).toEqual([[['validation'], 'required']]);
    expect(pairs(blocks({ allowedTypes: [] }))).toEqual([[['validation', 'allowedTypes'], 'too_small']]);
  });

  it('allowedTypes are unique block type slugs', () => {
    expect(pairs(blocks({ allowedTypes: ['hero', 'hero', 'Bad'] }))).toEqual([
      [['validation', 'allowedTypes', 1], 'duplicate'],
      [['validation', 'allowedTypes', 2], 'invalid_validation'],
    ]);
  });

  it('maxItems is at most 100', () => {
    expect(pairs(blocks({ allowedTypes: ['hero'], maxItems: 101 }))).toEqual([
      [['validation', 'maxItems'], 'invalid_validation'],
    ]);
    expect(pairs(blocks({ allowedTypes: ['hero'], minItems: 2, maxItems: 1 }))).toEqual([
      [['validation', 'maxItems'], 'invalid_validation'],
    ]);
  });

  it('cannot be required, unique, searchable, indexed, or use widget, defaultValue or options', () => {
    const def = blocks(
      { allowedTypes: ['hero'] },
      { required: true, unique: true, searchable: true, indexed: true, widget: 'x', defaultValue: [], options: {} },
    );
    expect(pairs(def).map(([p]) => p[0])).toEqual([
      'required',
      'unique',
      'searchable',
      'indexed',
      'widget',
      'defaultValue',
      'options',
    ]);
  });

  it('may be non-translatable and ordered', () => {
    expect(pairs(blocks({ allowedTypes: ['hero'] }, { translatable: false, sortOrder: 4 }))).toEqual([]);
  });

  it('refuses retiredTypes sent by a client', () => {
    expect(pairs(blocks({ allowedTypes: ['hero'], retiredTypes: ['old'] }))).toEqual([
      [['validation', 'retiredTypes'], 'server_managed'],
    ]);
  });

  it('accepts retiredTypes as stored or as the server computes them', () => {
    const previous = blocks({ allowedTypes: ['hero', 'quote'], retiredTypes: ['old'] });
    expect(pairs(blocks({ allowedTypes: ['hero', 'quote'], retiredTypes: ['old'] }), { previous })).toEqual([]);
    expect(pairs(blocks({ allowedTypes: ['hero'], retiredTypes: ['quote', 'old'] }), { previous })).toEqual([]);
    expect(pairs(blocks({ allowedTypes: ['hero'], retiredTypes: [] }), { previous })).toEqual([
      [['validation', 'retiredTypes'], 'server_managed'],
    ]);
  });

  it('refuses a type both allowed and retired', () => {
    const issues = pairs(blocks({ allowedTypes: ['hero'], retiredTypes: ['hero'] }));
    expect(issues).toContainEqual([['validation', 'retiredTypes'], 'invalid_validation']);
  });

  it('checks newly allowed block types exist when given a lookup', () => {
    const blockTypes = { fields: () => [], activeVersion: (s: string) => (s === 'hero' ? 1 : undefined) };
    expect(pairs(blocks({ allowedTypes: ['hero', 'ghost'] }), { blockTypes })).toEqual([
      [['validation', 'allowedTypes', 1], 'unknown_block_type'],
    ]);
  });
});

describe('computeRetiredTypes', () => {
  const prev = field('blocks', { validation: { allowedTypes: ['a', 'b', 'c'], retiredTypes: ['x'] } });

  it('retires types dropped from allowedTypes and un-retires re-added ones', () => {
    expect(computeRetiredTypes(prev, ['a'])).toEqual(['x', 'b', 'c']);
    expect(computeRetiredTypes(prev, ['a', 'b', 'c', 'x'])).toEqual([]);
    expect(computeRetiredTypes(undefined, ['a'])).toEqual([]);
  });
});

describe('checkFieldDefinition: flags', () => {
  it.each(['text', 'multiSelect', 'portableText', 'image', 'file', 'json', 'repeater'] as const)(
    '%s cannot be indexed',
    (type) => {
      const extra =
        type === 'repeater' ? { validation: { subFields: [{ slug: 'a', label: 'A', type: 'string' }] } } : {};
      expect(pairs(field(type, { indexed: true, ...extra }))).toEqual([[['indexed'], 'not_allowed']]);
    },
  );

  it.each(['string', 'url', 'number', 'integer', 'boolean', 'datetime', 'select', 'slug'] as const)(
    '%s can be indexed',
    (type) => {
      expect(pairs(field(type, { indexed: true }))).toEqual([]);
    },
  );

  it.each(['multiSelect', 'portableText', 'image', 'file', 'json'] as const)(
    '%s cannot be unique (JSON column)',
    (type) => {
      expect(pairs(field(type, { unique: true }))).toEqual([[['unique'], 'not_allowed']]);
    },
  );

  it.each(['string', 'text', 'url', 'slug', 'select', 'multiSelect', 'portableText'] as const)(
    '%s can be searchable',
    (type) => {
      expect(pairs(field(type, { searchable: true }))).toEqual([]);
    },
  );

  it.each(['number', 'integer', 'boolean', 'datetime', 'image', 'file', 'json', 'reference'] as const)(
    '%s cannot be searchable',
    (type) => {
      expect(pairs(field(type, { searchable: true }))).toEqual([[['searchable'], 'not_allowed']]);
    },
  );
});

describe('checkFieldDefinition: defaultValue', () => {
  it('must pass value validation for the field', () => {
    expect(pairs(field('string', { defaultValue: 'toolong', validation: { maxLength: 3 } }))).toEqual([
      [['defaultValue'], 'too_big'],
    ]);
    expect(pairs(field('select', { defaultValue: 'z', validation: { options: ['a'] } }))).toEqual([
      [['defaultValue'], 'invalid_option'],
    ]);
    expect(pairs(field('url', { defaultValue: 'javascript:alert(1)' }))).toEqual([[['defaultValue'], 'invalid_url']]);
    expect(pairs(field('integer', { defaultValue: '5' }))).toEqual([[['defaultValue'], 'invalid_type']]);
    expect(pairs(field('multiSelect', { defaultValue: ['a', 1] }))).toEqual([[['defaultValue', 1], 'invalid_type']]);
  });

  it('accepts valid defaults, and null as "no default"', () => {
    expect(pairs(field('datetime', { defaultValue: '2026-01-01T00:00:00+01:00' }))).toEqual([]);
    expect(pairs(field('boolean', { defaultValue: false }))).toEqual([]);
    expect(pairs(field('string', { required: true, defaultValue: null }))).toEqual([]);
  });

  it('is not checked against broken rules (the rule issue is reported instead)', () => {
    expect(pairs(field('string', { defaultValue: 'x', validation: { pattern: '(' } }))).toEqual([
      [['validation', 'pattern'], 'invalid_validation'],
    ]);
  });
});

describe('checkFieldDefinition: updates', () => {
  it('refuses a type change', () => {
    expect(pairs(field('text'), { previous: field('string') })).toEqual([[['type'], 'immutable']]);
  });

  it('refuses changing or removing targetCollection', () => {
    const previous = field('reference', { validation: { targetCollection: 'people' } });
    expect(pairs(field('reference', { validation: { targetCollection: 'users' } }), { previous })).toEqual([
      [['validation', 'targetCollection'], 'immutable'],
    ]);
    expect(pairs(field('reference'), { previous })).toEqual([[['validation', 'targetCollection'], 'immutable']]);
    expect(
      pairs(field('reference', { validation: { targetCollection: 'people', multiple: true } }), { previous }),
    ).toEqual([]);
  });

  it('allows the legacy conversion to targetCollection', () => {
    const previous = field('reference', { options: { allowMultiple: true }, indexed: true });
    expect(pairs(field('reference', { validation: { targetCollection: 'people' } }), { previous })).toEqual([]);
  });

  it('refuses changing relation or relationSide, including binding a legacy field to a relation', () => {
    const previous = field('reference', { validation: { relation: 'r1', relationSide: 'parent' } });
    expect(pairs(field('reference', { validation: { relation: 'r2', relationSide: 'parent' } }), { previous })).toEqual(
      [[['validation', 'relation'], 'immutable']],
    );
    expect(pairs(field('reference', { validation: { relation: 'r1', relationSide: 'child' } }), { previous })).toEqual([
      [['validation', 'relationSide'], 'immutable'],
    ]);
    expect(pairs(field('reference', { validation: { relation: 'r1' } }), { previous: field('reference') })).toEqual([
      [['validation', 'relation'], 'immutable'],
    ]);
  });
});

describe('blockDefinitionIssues', () => {
  it('accepts scalar, selection, rich text, media and repeater fields', () => {
    const fields = [
      field('string', { slug: 'title', required: true }),
      field('text', { slug: 'body' }),
      field('url', { slug: 'link' }),
      field('integer', { slug: 'count' }),
      field('multiSelect', { slug: 'tags' }),
      field('portableText', { slug: 'rich' }),
      field('image', { slug: 'photo' }),
      field('file', { slug: 'doc' }),
      field('repeater', { slug: 'rows', validation: { subFields: [{ slug: 'a', label: 'A', type: 'string' }] } }),
      field('string', { slug: 'status' }),
    ];
    expect(blockDefinitionIssues(fields)).toEqual([]);
  });

  it.each(['reference', 'json', 'slug', 'blocks'] as const)('refuses %s fields', (type) => {
    expect(
      blockDefinitionIssues([field('string', { slug: 'ok' }), field(type, { slug: 'x' })]).map((i) => [i.path, i.code]),
    ).toEqual([[[1, 'type'], 'not_allowed']]);
  });

  it('reports per-field issues with the field index, duplicate slugs and column-only flags', () => {
    const fields = [
      field('string', { slug: 'a', validation: { maxLength: -1 } }),
      field('string', { slug: 'a', unique: true }),
      field('select', { slug: 'c', indexed: true, searchable: true }),
    ];
    expect(blockDefinitionIssues(fields).map((i) => [i.path, i.code])).toEqual([
      [[0, 'validation', 'maxLength'], 'invalid_validation'],
      [[1, 'unique'], 'not_allowed'],
      [[1, 'slug'], 'duplicate'],
      [[2, 'indexed'], 'not_allowed'],
      [[2, 'searchable'], 'not_allowed'],
    ]);
  });
});

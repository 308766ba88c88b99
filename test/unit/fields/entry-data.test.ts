import { describe, expect, it } from 'vitest';
import { CmsError, type ValidationIssue } from '../../../src/core/errors.js';
import { type FieldDefinition, type ValidateOptions, validateEntryData } from '../../../src/services/fields/index.js';
import { field } from './helpers.js';

const fields: FieldDefinition[] = [
  field('string', { slug: 'title', label: 'Title', required: true }),
  field('integer', { slug: 'rating', label: 'Rating', validation: { min: 1, max: 5 } }),
  field('select', {
    slug: 'status_label',
    label: 'Label',
    defaultValue: 'draft',
    validation: { options: ['draft', 'final'] },
  }),
  field('json', { slug: 'meta', label: 'Meta', defaultValue: { tags: [] } }),
  field('datetime', { slug: 'event_at', label: 'Event' }),
  field('reference', { slug: 'author', label: 'Author', validation: { targetCollection: 'people' } }),
  field('blocks', { slug: 'content', label: 'Content', validation: { allowedTypes: ['hero'] } }),
];

/** Runs validateEntryData and returns its issues (empty when it did not throw). */
function issuesOf(data: unknown, options: ValidateOptions = { mode: 'create' }): ValidationIssue[] {
  try {
    validateEntryData(fields, data, options);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(CmsError);
    const e = err as CmsError;
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.message).toBe('Invalid entry data');
    return (e.details?.issues ?? []) as ValidationIssue[];
  }
}

const pairs = (issues: ValidationIssue[]) => issues.map((i) => [i.path, i.code]);

describe('validateEntryData: create', () => {
  it('returns normalised data with defaults applied and blocks defaulting to []', () => {
    const out = validateEntryData(
      fields,
      { title: 'Hello', event_at: '2026-01-02T05:00:00+02:00' },
      { mode: 'create' },
    );
    expect(out).toEqual({
      title: 'Hello',
      event_at: '2026-01-02T03:00:00.000Z',
      status_label: 'draft',
      meta: { tags: [] },
      content: [],
    });
  });

  it('copies default objects so entries never share them with the definition', () => {
    const out = validateEntryData(fields, { title: 'x' }, { mode: 'create' });
    expect(out.meta).toEqual({ tags: [] });
    expect(out.meta).not.toBe(fields[3]?.defaultValue);
  });

  it('reports a missing required field', () => {
    expect(pairs(issuesOf({}))).toEqual([[['data', 'title'], 'required']]);
  });

  it('collects all issues in one error', () => {
    expect(pairs(issuesOf({ title: '', rating: 9, status_label: 'x', nope: 1, event_at: 'tomorrow' }))).toEqual([
      [['data', 'title'], 'required'],
      [['data', 'rating'], 'too_big'],
      [['data', 'status_label'], 'invalid_option'],
      [['data', 'nope'], 'unknown_field'],
      [['data', 'event_at'], 'invalid_datetime'],
    ]);
  });

  it('tells the caller to send relation-bound references in references', () => {
    const issues = issuesOf({ title: 'x', author: ['01J'] });
    expect(pairs(issues)).toEqual([[['data', 'author'], 'use_references']]);
    expect(issues[0]?.message).toMatch(/references/);
  });

  it('does not require or default a relation-bound reference', () => {
    expect(validateEntryData(fields, { title: 'x' }, { mode: 'create' })).not.toHaveProperty('author');
  });

  it('rejects data that is not a plain object', () => {
    for (const bad of [null, [], 'x', 1, new Date()]) {
      expect(pairs(issuesOf(bad))).toEqual([[['data'], 'invalid_type']]);
    }
  });

  it('does not let prototype keys stand in for fields', () => {
    const defs = [field('string', { slug: 'constructor', label: 'C', required: true })];
    expect(() => validateEntryData(defs, {}, { mode: 'create' })).toThrow(CmsError);
    expect(pairs(issuesOf(JSON.parse('{"title":"x","__proto__":{"polluted":1}}')))).toEqual([
      [['data', '__proto__'], 'unknown_field'],
    ]);
  });

  it('does not mutate its input', () => {
    const data = { title: 'x', event_at: '2026-01-02T05:00:00+02:00', content: null };
    const copy = structuredClone(data);
    validateEntryData(fields, data, { mode: 'create' });
    expect(data).toEqual(copy);
  });

  it('lets an explicit null clear an optional field instead of taking the default', () => {
    expect(validateEntryData(fields, { title: 'x', status_label: null }, { mode: 'create' }).status_label).toBeNull();
  });
});

describe('validateEntryData: update (partial)', () => {
  const update: ValidateOptions = { mode: 'update' };

  it('checks only the keys present and adds no defaults', () => {
    expect(validateEntryData(fields, { rating: 3 }, update)).toEqual({ rating: 3 });
    expect(validateEntryData(fields, {}, update)).toEqual({});
  });

  it('rejects clearing or blanking a required field', () => {
    expect(pairs(issuesOf({ title: null }, update))).toEqual([[['data', 'title'], 'required']]);
    expect(pairs(issuesOf({ title: '  ' }, update))).toEqual([[['data', 'title'], 'required']]);
  });

  it('lets null clear an optional field and normalises blocks null to []', () => {
    expect(validateEntryData(fields, { rating: null, content: null }, update)).toEqual({ rating: null, content: [] });
  });

  it('still rejects unknown keys and bad values', () => {
    expect(pairs(issuesOf({ rating: 'five', extra: true }, update))).toEqual([
      [['data', 'rating'], 'invalid_type'],
      [['data', 'extra'], 'unknown_field'],
    ]);
  });

  it('treats undefined values as absent', () => {
    expect(validateEntryData(fields, { title: undefined, rating: 2 }, update)).toEqual({ rating: 2 });
  });
});

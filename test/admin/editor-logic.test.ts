/** The admin's editor logic (validation, timezone, save bodies), tested in Node; typechecked with the admin. */
import { describe, expect, it } from 'vitest';
import type { CollectionModel } from '../../admin/src/api/content';
import {
  formatInSiteZone,
  fromZonedInput,
  offsetLabel,
  setSiteTimeZone,
  siteTimeZone,
  toZonedInput,
} from '../../admin/src/lib/timezone';
import { fieldError, formIssues } from '../../admin/src/lib/validate';
import { changedKeys, createBody, type FormState, updateBody } from '../../admin/src/pages/content/editor/form';
import { acceptFor, mediaValue } from '../../admin/src/pages/content/fields/MediaInput';

describe('date and time in the site timezone', () => {
  it('reads a wall-clock time in the zone as UTC, both sides of a DST change', () => {
    expect(fromZonedInput('2027-01-15T10:00', 'Europe/Paris')).toBe('2027-01-15T09:00:00.000Z');
    expect(fromZonedInput('2027-07-15T10:00', 'Europe/Paris')).toBe('2027-07-15T08:00:00.000Z');
    expect(fromZonedInput('2027-03-14T01:30', 'America/New_York')).toBe('2027-03-14T06:30:00.000Z');
    expect(fromZonedInput('2027-01-15T10:00', 'Asia/Kolkata')).toBe('2027-01-15T04:30:00.000Z');
    expect(fromZonedInput('2027-01-15T10:00', 'UTC')).toBe('2027-01-15T10:00:00.000Z');
    expect(fromZonedInput('not a date', 'UTC')).toBeNull();
  });

  it('shows a stored instant as the zone wall clock and labels the offset', () => {
    expect(toZonedInput('2027-07-15T08:00:00.000Z', 'Europe/Paris')).toBe('2027-07-15T10:00');
    expect(toZonedInput('2027-01-01T00:30:00.000Z', 'America/Los_Angeles')).toBe('2026-12-31T16:30');
    expect(toZonedInput(null, 'UTC')).toBe('');
    expect(offsetLabel('2027-07-15T08:00:00.000Z', 'Europe/Paris')).toBe('UTC+02:00');
    expect(offsetLabel('2027-01-15T08:00:00.000Z', 'Asia/Kolkata')).toBe('UTC+05:30');
    expect(offsetLabel('2027-01-15T08:00:00.000Z', 'America/New_York')).toBe('UTC-05:00');
  });

  it("uses the site's zone once the session names it, and the browser's before or for an unknown zone", () => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const other = browser === 'Asia/Kolkata' ? 'Europe/Paris' : 'Asia/Kolkata';
    try {
      setSiteTimeZone(other);
      expect(siteTimeZone()).toBe(other);
      expect(fromZonedInput('2027-01-15T10:00')).toBe(fromZonedInput('2027-01-15T10:00', other));
      expect(formatInSiteZone('2027-01-15T04:30:00.000Z')).toContain(other.replace('_', ' '));
      setSiteTimeZone('Mars/Olympus');
      expect(siteTimeZone()).toBe(browser);
    } finally {
      setSiteTimeZone(null);
    }
    expect(siteTimeZone()).toBe(browser);
  });
});

describe('media values chosen in the picker', () => {
  const item = {
    id: '01JMEDIAAAAAAAAAAAAAAAAAAA',
    filename: 'cover.png',
    mimeType: 'image/png',
    size: 1234,
    width: 40,
    height: 30,
    alt: 'Library alt',
    url: 'http://cms.test/_cms/media/01JMEDIAAAAAAAAAAAAAAAAAAA',
  } as never;

  it('fills the shape the field rules accept, keeping alt text written for this use', () => {
    expect(mediaValue('image', item, null)).toEqual({
      id: '01JMEDIAAAAAAAAAAAAAAAAAAA',
      provider: 'local',
      src: 'http://cms.test/_cms/media/01JMEDIAAAAAAAAAAAAAAAAAAA',
      mimeType: 'image/png',
      width: 40,
      height: 30,
      alt: 'Library alt',
    });
    expect(mediaValue('image', item, { id: 'old', alt: 'Mine' }).alt).toBe('Mine');
    // With the storage key (every item the API answers has one) it is kept under meta, as the spec's shape says.
    expect(mediaValue('image', { ...(item as object), storageKey: 'abc.png' } as never, null).meta).toEqual({
      storageKey: 'abc.png',
    });
    expect(mediaValue('file', item, null)).toEqual({
      id: '01JMEDIAAAAAAAAAAAAAAAAAAA',
      provider: 'local',
      filename: 'cover.png',
      mimeType: 'image/png',
      url: 'http://cms.test/_cms/media/01JMEDIAAAAAAAAAAAAAAAAAAA',
      size: 1234,
    });
  });

  it("offers the field's allowed types, or any image for an image field", () => {
    expect(acceptFor('image', undefined)).toEqual(['image/*']);
    expect(acceptFor('file', undefined)).toBeUndefined();
    expect(acceptFor('file', { allowedMimeTypes: ['application/pdf'] })).toEqual(['application/pdf']);
  });
});

describe('field rules shown before saving', () => {
  const f = (type: string, extra: Record<string, unknown> = {}) =>
    ({ slug: 'x', label: 'X', type, required: false, ...extra }) as never;

  it('checks each type as the service does', () => {
    expect(fieldError(f('string', { required: true }), '  ')).toBe('X is required.');
    expect(fieldError(f('string', { validation: { maxLength: 3 } }), 'abcd')).toBe('At most 3 characters (now 4).');
    // Characters, not UTF-16 units: an emoji is one.
    expect(fieldError(f('string', { validation: { maxLength: 3 } }), 'ab😀')).toBeUndefined();
    expect(fieldError(f('string', { validation: { pattern: '[a-z]+' } }), 'abc1')).toBe(
      'Does not have the expected format.',
    );
    expect(fieldError(f('url'), 'javascript:alert(1)')).toMatch(/./);
    expect(fieldError(f('url'), '/about')).toBeUndefined();
    expect(fieldError(f('integer', { validation: { max: 5 } }), 9)).toBe('At most 5.');
    expect(fieldError(f('integer'), 1.5)).toBe('Must be a whole number.');
    expect(fieldError(f('select', { validation: { options: ['a'] } }), 'b')).toBe('Choose one of the options.');
    expect(fieldError(f('boolean', { required: true }), false)).toBeUndefined();
    expect(fieldError(f('repeater', { validation: { minItems: 1 } }), [])).toBeUndefined();
    expect(fieldError(f('repeater', { validation: { minItems: 2 } }), [{}])).toBe('At least 2 rows.');
  });

  it('reports nested repeater and block issues under their paths', () => {
    const fields = [
      f('repeater', {
        slug: 'rows',
        validation: { subFields: [{ slug: 'name', label: 'Name', type: 'string', required: true }] },
      }),
      f('blocks', { slug: 'blocks', validation: { allowedTypes: ['quote'] } }),
    ];
    const lookup = () => [{ slug: 'text', label: 'Text', type: 'string', required: true }] as never;
    const issues = formIssues(
      fields as never,
      { rows: [{ name: 'ok' }, { name: '' }], blocks: [{ _type: 'quote', _key: 'k' }] },
      lookup,
    );
    expect(issues).toEqual({ 'rows.1.name': 'Name is required.', 'blocks.0.text': 'Text is required.' });
  });
});

describe('what a save sends', () => {
  const c = {
    fields: [
      { slug: 'title', type: 'string' },
      { slug: 'body', type: 'portableText' },
      { slug: 'writer', type: 'reference', validation: { targetCollection: 'people' } },
    ],
  } as unknown as CollectionModel;
  const base: FormState = { data: { title: 'A', body: [] }, slug: 'a', refs: { writer: [] }, credits: [] };

  it('sends only what changed, references by ID and credits in order', () => {
    expect(updateBody(c, base, base).keys).toEqual([]);
    const cur: FormState = {
      ...base,
      data: { ...base.data, title: 'B' },
      refs: { writer: [{ id: 'P1' } as never] },
      credits: [{ byline: { id: 'BY' } as never, roleLabel: 'Photos' }],
    };
    expect(changedKeys(c, base, cur)).toEqual(['title', 'writer', 'bylines']);
    expect(updateBody(c, base, cur).body).toEqual({
      data: { title: 'B' },
      references: { writer: ['P1'] },
      bylines: [{ bylineId: 'BY', roleLabel: 'Photos' }],
    });
    expect(updateBody(c, base, { ...base, slug: '  ' }).body).toEqual({ slug: null });
    expect(createBody(c, cur)).toEqual({
      data: { title: 'B', body: [] },
      slug: 'a',
      references: { writer: ['P1'] },
      bylines: [{ bylineId: 'BY', roleLabel: 'Photos' }],
    });
  });
});

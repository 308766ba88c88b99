import { describe, expect, it } from 'vitest';
import { type FieldDefinition, validateFieldValue } from '../../../src/services/fields/index.js';
import { field } from './helpers.js';

function check(def: FieldDefinition, value: unknown) {
  return validateFieldValue(def, value, ['data', def.slug], { mode: 'create' });
}

function issues(def: FieldDefinition, value: unknown): [(string | number)[], string][] {
  return check(def, value).issues.map((i) => [i.path, i.code]);
}

const IMAGE = {
  id: 'm1',
  src: '/_cms/api/media/file/abc.png',
  alt: 'A cat',
  width: 800,
  height: 600,
  provider: 'local',
  meta: { storageKey: 'abc.png', blurhash: 'x' },
  mimeType: 'image/png',
};

describe('image values', () => {
  const hero = field('image', { slug: 'hero' });

  it('accepts the documented shape and returns a copy', () => {
    const result = check(hero, IMAGE);
    expect(result.issues).toEqual([]);
    expect(result.value).toEqual(IMAGE);
    expect(result.value).not.toBe(IMAGE);
  });

  it('needs an id and accepts the minimal object', () => {
    expect(issues(hero, { src: 'https://cdn.example/x.png' })).toEqual([[['data', 'hero', 'id'], 'required']]);
    expect(issues(hero, { id: 'm1' })).toEqual([]);
  });

  it('checks property types and unknown properties', () => {
    expect(issues(hero, { id: 'm1', width: -1, height: 1.5, alt: 3, meta: 'x', altText: 'typo' })).toEqual([
      [['data', 'hero', 'width'], 'invalid_type'],
      [['data', 'hero', 'height'], 'invalid_type'],
      [['data', 'hero', 'alt'], 'invalid_type'],
      [['data', 'hero', 'meta'], 'invalid_type'],
      [['data', 'hero', 'altText'], 'unknown_field'],
    ]);
    expect(issues(hero, { id: 'm1', meta: { storageKey: 5 } })).toEqual([
      [['data', 'hero', 'meta', 'storageKey'], 'invalid_type'],
    ]);
  });

  it('rejects an unsafe src', () => {
    expect(issues(hero, { id: 'm1', src: 'javascript:alert(1)' })).toEqual([[['data', 'hero', 'src'], 'invalid_url']]);
  });

  it('does not inherit prototype keys as known properties', () => {
    expect(issues(hero, JSON.parse('{"id":"m1","constructor":1}'))).toEqual([
      [['data', 'hero', 'constructor'], 'unknown_field'],
    ]);
  });

  it('rejects non-objects', () => {
    expect(issues(hero, 'm1')).toEqual([[['data', 'hero'], 'invalid_type']]);
  });

  it('checks allowedMimeTypes case-insensitively when the value has a mimeType', () => {
    const pngOnly = field('image', { slug: 'hero', validation: { allowedMimeTypes: ['image/png'] } });
    expect(issues(pngOnly, { id: 'm1', mimeType: 'IMAGE/PNG' })).toEqual([]);
    expect(issues(pngOnly, { id: 'm1', mimeType: 'image/gif' })).toEqual([
      [['data', 'hero', 'mimeType'], 'invalid_mime_type'],
    ]);
    expect(issues(pngOnly, { id: 'm1' })).toEqual([]);
  });

  it('accepts darkVariant only when options.darkVariant is on', () => {
    const value = { ...IMAGE, darkVariant: { id: 'm2', mimeType: 'image/png' } };
    expect(issues(hero, value)).toEqual([[['data', 'hero', 'darkVariant'], 'not_allowed']]);
    const withDark = field('image', { slug: 'hero', options: { darkVariant: true } });
    expect(issues(withDark, value)).toEqual([]);
    expect(issues(withDark, { id: 'm1', darkVariant: null })).toEqual([]);
  });

  it('checks the darkVariant shape and MIME type like the main slot', () => {
    const def = field('image', {
      slug: 'hero',
      options: { darkVariant: true },
      validation: { allowedMimeTypes: ['image/png'] },
    });
    expect(
      issues(def, { id: 'm1', darkVariant: { alt: 'x', mimeType: 'image/gif', darkVariant: { id: 'z' } } }),
    ).toEqual([
      [['data', 'hero', 'darkVariant', 'darkVariant'], 'unknown_field'],
      [['data', 'hero', 'darkVariant', 'id'], 'required'],
      [['data', 'hero', 'darkVariant', 'mimeType'], 'invalid_mime_type'],
    ]);
  });
});

describe('file values', () => {
  const doc = field('file', { slug: 'doc', validation: { allowedMimeTypes: ['application/pdf'] } });
  const FILE = {
    id: 'f1',
    provider: 'local',
    filename: 'report.pdf',
    mimeType: 'application/pdf',
    meta: { storageKey: 'f1.pdf' },
    url: 'https://cdn.example/f1.pdf',
    size: 1234,
  };

  it('accepts the documented shape', () => {
    expect(check(doc, FILE)).toEqual({ value: FILE, issues: [] });
  });

  it('needs id, filename and mimeType', () => {
    expect(issues(doc, { id: 'f1' })).toEqual([
      [['data', 'doc', 'filename'], 'required'],
      [['data', 'doc', 'mimeType'], 'required'],
    ]);
  });

  it('checks size, url, unknown keys and the MIME allowlist', () => {
    expect(issues(doc, { ...FILE, size: -5, url: 'data:,x', alt: 'no', mimeType: 'text/html' })).toEqual([
      [['data', 'doc', 'url'], 'invalid_url'],
      [['data', 'doc', 'size'], 'invalid_type'],
      [['data', 'doc', 'alt'], 'unknown_field'],
      [['data', 'doc', 'mimeType'], 'invalid_mime_type'],
    ]);
  });
});

describe('portableText values', () => {
  const body = field('portableText', { slug: 'body' });
  const block = (children: unknown[], extra: Record<string, unknown> = {}) => ({
    _type: 'block',
    _key: 'b1',
    style: 'normal',
    markDefs: [],
    children,
    ...extra,
  });
  const span = (text: unknown, marks: unknown = []) => ({ _type: 'span', _key: 's1', text, marks });

  it('accepts standard blocks, lists and custom block types', () => {
    const value = [
      block([span('Hello '), span('world', ['strong', 'l1'])], {
        markDefs: [{ _type: 'link', _key: 'l1', href: 'https://example.com' }],
      }),
      block([span('item')], { listItem: 'bullet', level: 1 }),
      { _type: 'image', _key: 'i1', asset: { _ref: 'm1' } },
      { _type: 'code', code: 'x = 1', language: 'js' },
    ];
    expect(check(body, value)).toEqual({ value, issues: [] });
  });

  it('rejects javascript: in a link mark definition', () => {
    const value = [
      block([span('x', ['l1'])], { markDefs: [{ _type: 'link', _key: 'l1', href: 'javascript:alert(1)' }] }),
    ];
    expect(issues(body, value)).toEqual([[['data', 'body', 0, 'markDefs', 0, 'href'], 'invalid_url']]);
  });

  it('rejects unsafe href anywhere, including custom blocks and obfuscated schemes', () => {
    const value = [
      { _type: 'button', label: 'Go', href: 'JaVaScRiPt:alert(1)' },
      { _type: 'cta', link: { href: 'java\tscript:alert(1)' } },
      { _type: 'embed', href: 42 },
    ];
    expect(issues(body, value)).toEqual([
      [['data', 'body', 0, 'href'], 'invalid_url'],
      [['data', 'body', 1, 'link', 'href'], 'invalid_url'],
      [['data', 'body', 2, 'href'], 'invalid_type'],
    ]);
  });

  it('needs _type on blocks and children, string _key, and text on spans', () => {
    const value = [
      { _key: 'x' },
      'text',
      block([{ text: 'no type' }, span(5), span('ok', 'strong')]),
      block('not an array' as unknown as unknown[]),
      { _type: 'thing', _key: 7 },
    ];
    expect(issues(body, value)).toEqual([
      [['data', 'body', 0, '_type'], 'required'],
      [['data', 'body', 1], 'invalid_type'],
      [['data', 'body', 2, 'children', 0, '_type'], 'required'],
      [['data', 'body', 2, 'children', 1, 'text'], 'invalid_type'],
      [['data', 'body', 2, 'children', 2, 'marks'], 'invalid_type'],
      [['data', 'body', 3, 'children'], 'invalid_type'],
      [['data', 'body', 4, '_key'], 'invalid_type'],
    ]);
  });

  it('checks markDefs, style and level shapes', () => {
    const value = [block([span('x')], { markDefs: 'nope', style: 3, level: 0 })];
    expect(issues(body, value)).toEqual([
      [['data', 'body', 0, 'markDefs'], 'invalid_type'],
      [['data', 'body', 0, 'style'], 'invalid_type'],
      [['data', 'body', 0, 'level'], 'invalid_type'],
    ]);
  });

  it('must be an array, non-empty when required', () => {
    expect(issues(body, { _type: 'block' })).toEqual([[['data', 'body'], 'invalid_type']]);
    expect(issues({ ...body, required: true }, [])).toEqual([[['data', 'body'], 'required']]);
  });
});

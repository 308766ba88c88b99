import { describe, expect, it } from 'vitest';
import type { FieldInfo } from '../../../src/services/schema/model.js';
import { MAX_DOCUMENT_CHARS, portableTextToText, tierTexts } from '../../../src/services/search/text.js';

const field = (id: string, slug: string, type: FieldInfo['type']) =>
  ({ id, slug, type, column: slug, searchable: true }) as FieldInfo;

describe('document text', () => {
  it('takes span text from Portable Text, never keys, styles, marks or link targets', () => {
    const blocks = [
      {
        _type: 'block',
        _key: 'k1',
        style: 'h2',
        markDefs: [{ _key: 'm1', _type: 'link', href: 'https://hidden.example/secret' }],
        children: [
          { _type: 'span', _key: 's1', text: 'Hello ', marks: ['strong'] },
          { _type: 'span', _key: 's2', text: 'world', marks: ['m1'] },
        ],
      },
      { _type: 'image', _key: 'i1', asset: { _ref: 'image-abc' }, alt: 'not text of the body' },
      { _type: 'block', _key: 'k2', children: [{ _type: 'span', text: 'Second paragraph' }] },
      'garbage',
      null,
    ];
    expect(portableTextToText(blocks)).toBe('Hello world\nSecond paragraph');
    expect(portableTextToText({ not: 'an array' })).toBe('');
  });

  it('groups fields into their tiers, strips control characters and caps the total', () => {
    const fields = [field('f1', 'title', 'string'), field('f2', 'tags', 'multiSelect'), field('f3', 'body', 'text')];
    const out = tierTexts(
      fields,
      { title: 'A\u0001B\u0000C', tags: ['x', 'y', 3], body: 'z'.repeat(MAX_DOCUMENT_CHARS + 10) },
      { f1: 'a', f2: 'a', f3: 'b' },
    );
    expect(out.a).toBe('A B C\nx y');
    expect(out.a.length + out.b.length).toBe(MAX_DOCUMENT_CHARS);
    expect(out.c).toBe('');
  });

  it('replaces lone surrogates instead of indexing invalid text', () => {
    const out = tierTexts([field('f1', 'title', 'string')], { title: 'ok \ud800 ok 😀' }, { f1: 'a' });
    expect(out.a).toBe('ok \ufffd ok 😀');
  });
});

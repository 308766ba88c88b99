import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, keysetFor } from '../../../src/services/search/cursor.js';
import { afterKeyset } from '../../../src/services/search/engine.js';
import { markedToHtml, pickSnippet, substringSnippet } from '../../../src/services/search/snippet.js';

describe('snippets', () => {
  it('escapes HTML and turns match markers into balanced <mark> tags', () => {
    expect(markedToHtml('<script>alert("x")</script> & \u0001match\u0002')).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; <mark>match</mark>',
    );
    expect(markedToHtml('\u0001open only')).toBe('<mark>open only</mark>');
    expect(markedToHtml('close\u0002 only')).toBe('close only');
  });

  it('finds substring matches case-insensitively and marks every occurrence', () => {
    const snip = substringSnippet(`${'x '.repeat(200)}the SubString here, substring again`, ['substring']);
    expect(snip).toContain('\u0001SubString\u0002 here, \u0001substring\u0002');
    expect(snip.startsWith('…')).toBe(true);
    expect(substringSnippet('nothing to see', ['substring'])).toBe('');
  });

  it('shows the heaviest matching passage, passing over one that only repeats the title', () => {
    const weights = { a: 10, b: 1, c: 0, d: 0 };
    const title = 'Lighthouse keepers';
    expect(
      pickSnippet(
        { a: '\u0001Lighthouse\u0002 keepers', b: 'the \u0001lighthouse\u0002 lamp', c: '', d: '' },
        weights,
        title,
      ),
    ).toBe('the \u0001lighthouse\u0002 lamp');
    expect(pickSnippet({ a: '\u0001Lighthouse\u0002 keepers', b: 'no match', c: '', d: '' }, weights, title)).toBe(
      '\u0001Lighthouse\u0002 keepers',
    );
    expect(
      pickSnippet(
        { a: 'Title', b: 'body \u0001hit\u0002', c: 'more \u0001hit\u0002', d: '' },
        { a: 10, b: 1, c: 5, d: 0 },
        'Title',
      ),
    ).toBe('more \u0001hit\u0002');
  });

  it('drops the title a passage opens with when the rest matches too (title and body of one weight)', () => {
    const weights = { a: 1, b: 0, c: 0, d: 0 };
    const empty = { b: '', c: '', d: '' };
    const title = 'Running shoes';
    expect(
      pickSnippet({ a: '\u0001Running\u0002 shoes\nAll about \u0001running\u0002', ...empty }, weights, title),
    ).toBe('All about \u0001running\u0002');
    expect(
      pickSnippet({ a: 'Running \u0001shoes\u0002\nAll about \u0001running\u0002', ...empty }, weights, title),
    ).toBe('All about \u0001running\u0002');
    // The match is only in the title: kept whole. Not the title at all, or not a whole word of it: unchanged.
    expect(pickSnippet({ a: '\u0001Running\u0002 shoes\nAll about soles', ...empty }, weights, title)).toBe(
      '\u0001Running\u0002 shoes\nAll about soles',
    );
    expect(pickSnippet({ a: '…and \u0001running\u0002 shoes', ...empty }, weights, title)).toBe(
      '…and \u0001running\u0002 shoes',
    );
    expect(pickSnippet({ a: 'Running shoestrings \u0001running\u0002', ...empty }, weights, title)).toBe(
      'Running shoestrings \u0001running\u0002',
    );
  });
});

describe('search cursors', () => {
  it('round-trip, are bound to their query and refuse anything else with a 400 on cursor', () => {
    const c = encodeCursor({ score: 0.1 + 0.2, collection: 'posts', id: 'X' }, 'q1');
    expect(decodeCursor(c, 'q1')).toEqual({ score: 0.1 + 0.2, collection: 'posts', id: 'X' });
    for (const bad of [
      c.slice(0, -2),
      'not a cursor',
      '!!!',
      Buffer.from('{"q":"q1","s":"1"}').toString('base64url'),
    ]) {
      expect(() => decodeCursor(bad, 'q1')).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    }
    expect(() => decodeCursor(c, 'q2')).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('resume each collection after the last result (score desc, collection, id)', () => {
    const last = { score: 2, collection: 'm', id: 'K' };
    expect(afterKeyset(keysetFor('m', last)!, 2, 'L')).toBe(true);
    expect(afterKeyset(keysetFor('m', last)!, 2, 'K')).toBe(false);
    expect(afterKeyset(keysetFor('z', last)!, 2, 'A')).toBe(true);
    expect(afterKeyset(keysetFor('a', last)!, 2, 'Z')).toBe(false);
    expect(afterKeyset(keysetFor('a', last)!, 1.5, 'A')).toBe(true);
    expect(afterKeyset(keysetFor('z', last)!, 2.5, 'A')).toBe(false);
  });
});

/** Block by block: what each kind of WordPress content becomes, and what is refused or reported. */
import { describe, expect, it } from 'vitest';
import { wpContentToPortableText as convert } from '../../../src/services/import/convert/index.js';
import { checkPortableText } from '../../../src/services/rich-text.js';

type Obj = Record<string, any>;
const blocks = (html: string, ctx = {}) => {
  const r = convert(html, ctx);
  checkPortableText(r.blocks, ['content']);
  return r.blocks as Obj[];
};
const text = (b: Obj) => b.children.map((c: Obj) => c.text).join('');

describe('block-editor markup', () => {
  it('paragraphs and headings with inline marks and links as mark definitions', () => {
    const [h, p] = blocks(
      '<!-- wp:heading {"level":3} --><h3>Title <em>here</em></h3><!-- /wp:heading -->\n\n' +
        '<!-- wp:paragraph --><p>A <strong>bold</strong> <a href="https://example.com/x">link</a>, <code>x()</code>, <s>gone</s>, H<sub>2</sub>O and x<sup>3</sup>.</p><!-- /wp:paragraph -->',
    );
    expect(h).toMatchObject({ _type: 'block', style: 'h3' });
    expect(text(h)).toBe('Title here');
    expect(text(p)).toBe('A bold link, x(), gone, H2O and x3.');
    const marks = Object.fromEntries(p.children.map((c: Obj) => [c.text, c.marks]));
    expect(marks.bold).toEqual(['strong']);
    expect(marks['x()']).toEqual(['code']);
    expect(marks.gone).toEqual(['strike-through']);
    expect(marks['2']).toEqual(['sub']);
    expect(marks['3']).toEqual(['sup']);
    expect(p.markDefs).toEqual([{ _type: 'link', _key: marks.link[0], href: 'https://example.com/x' }]);
  });

  it('nested lists keep their levels and kinds', () => {
    const out = blocks(
      '<!-- wp:list --><ul><li>one<ul><li>one.a</li></ul></li><li>two<ol><li>two.1</li></ol></li></ul><!-- /wp:list -->',
    );
    expect(out.map((b) => [text(b), b.listItem, b.level])).toEqual([
      ['one', 'bullet', 1],
      ['one.a', 'bullet', 2],
      ['two', 'bullet', 1],
      ['two.1', 'number', 2],
    ]);
  });

  it('quotes, code, tables, separators, embeds and galleries', () => {
    const out = blocks(`
<!-- wp:quote --><blockquote class="wp-block-quote"><p>Wise words</p><cite>Someone</cite></blockquote><!-- /wp:quote -->
<!-- wp:code --><pre class="wp-block-code"><code>if (a &lt; b) {
  go();
}</code></pre><!-- /wp:code -->
<!-- wp:table --><figure class="wp-block-table"><table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><figcaption>Numbers</figcaption></figure><!-- /wp:table -->
<!-- wp:separator --><hr class="wp-block-separator"/><!-- /wp:separator -->
<!-- wp:embed {"url":"https://www.youtube.com/watch?v=abc","type":"video","providerNameSlug":"youtube"} -->
<figure class="wp-block-embed is-type-video is-provider-youtube"><div class="wp-block-embed__wrapper">
https://www.youtube.com/watch?v=abc
</div><figcaption>A video</figcaption></figure><!-- /wp:embed -->
<!-- wp:gallery {"linkTo":"none"} --><figure class="wp-block-gallery has-nested-images">
<!-- wp:image {"id":1} --><figure class="wp-block-image"><img src="https://example.com/1.jpg" alt="One" class="wp-image-1"/><figcaption>First</figcaption></figure><!-- /wp:image -->
<!-- wp:image {"id":2} --><figure class="wp-block-image"><img src="https://example.com/2.jpg" alt="Two" class="wp-image-2"/></figure><!-- /wp:image -->
<figcaption class="blocks-gallery-caption">Both</figcaption></figure><!-- /wp:gallery -->`);
    expect(out.map((b) => b._type)).toEqual(['block', 'block', 'code', 'table', 'break', 'embed', 'gallery']);
    expect(out[0]).toMatchObject({ style: 'blockquote' });
    expect(text(out[1])).toBe('Someone');
    expect(out[2]).toMatchObject({ code: 'if (a < b) {\n  go();\n}' });
    expect(out[3]).toMatchObject({ headerRows: 1, caption: 'Numbers' });
    expect(out[3].rows.map((r: Obj) => r.cells)).toEqual([
      ['A', 'B'],
      ['1', '2'],
    ]);
    expect(out[5]).toMatchObject({
      url: 'https://www.youtube.com/watch?v=abc',
      provider: 'youtube',
      caption: 'A video',
    });
    expect(out[6].caption).toBe('Both');
    expect(out[6].images.map((i: Obj) => [i.src, i.alt, i.caption, i.attachmentId])).toEqual([
      ['https://example.com/1.jpg', 'One', 'First', 1],
      ['https://example.com/2.jpg', 'Two', undefined, 2],
    ]);
  });

  it('images take the media-library address the importer gives and keep link and caption', () => {
    const [img] = blocks(
      '<!-- wp:image {"id":5,"linkDestination":"custom"} --><figure class="wp-block-image"><a href="https://example.com/page"><img src="https://old.example/a.jpg" alt="A" class="wp-image-5"/></a><figcaption>Cap</figcaption></figure><!-- /wp:image -->',
      { mediaBySourceUrl: (u: string) => (u === 'https://old.example/a.jpg' ? '/media/abc/a.jpg' : undefined) },
    );
    expect(img).toMatchObject({
      _type: 'image',
      src: '/media/abc/a.jpg',
      sourceUrl: 'https://old.example/a.jpg',
      alt: 'A',
      caption: 'Cap',
      href: 'https://example.com/page',
      attachmentId: 5,
    });
  });

  it('columns and groups flatten in reading order', () => {
    const out = blocks(
      '<!-- wp:columns --><div class="wp-block-columns"><!-- wp:column --><div class="wp-block-column"><!-- wp:paragraph --><p>Left</p><!-- /wp:paragraph --></div><!-- /wp:column --><!-- wp:column --><div class="wp-block-column"><!-- wp:paragraph --><p>Right</p><!-- /wp:paragraph --></div><!-- /wp:column --></div><!-- /wp:columns -->',
    );
    expect(out.map(text)).toEqual(['Left', 'Right']);
  });

  it('reusable blocks become references; dynamic, plugin and HTML blocks are kept and counted', () => {
    const r = convert(
      '<!-- wp:block {"ref":42} /-->\n<!-- wp:latest-posts {"postsToShow":3} /-->\n<!-- wp:jetpack/map {"zoom":3} --><div class="wp-block-jetpack-map">Map</div><!-- /wp:jetpack/map -->\n<!-- wp:html --><marquee>Hi</marquee><!-- /wp:html -->\n<!-- wp:block {"ref":42} /-->',
    );
    expect(r.reusableBlockRefs).toEqual([42]);
    expect(r.blocks.map((b) => b._type)).toEqual(['reusableBlock', 'html', 'html', 'html', 'reusableBlock']);
    expect(r.blocks[0]).toMatchObject({ ref: 42 });
    expect(r.blocks[1]).toMatchObject({
      blockName: 'core/latest-posts',
      html: '<!-- wp:latest-posts {"postsToShow":3} /-->',
    });
    expect(r.blocks[2]).toMatchObject({ blockName: 'jetpack/map' });
    expect(String((r.blocks[2] as Obj).html)).toContain('<div class="wp-block-jetpack-map">Map</div>');
    expect(r.blocks[3]).toMatchObject({ html: '<marquee>Hi</marquee>' });
    expect(r.unconverted.map((u) => [u.kind, u.count])).toEqual([
      ['core/latest-posts', 1],
      ['jetpack/map', 1],
      ['core/html', 1],
    ]);
  });
});

describe('classic editor content', () => {
  it('blank lines make paragraphs and single newlines line breaks (wpautop)', () => {
    const out = blocks(
      'First line\nsecond line with <b>bold</b>\n\nNext paragraph<!--more-->\n\n<ul>\n<li>item</li>\n</ul>',
    );
    expect(out.map((b) => b._type)).toEqual(['block', 'block', 'break', 'block']);
    expect(text(out[0])).toBe('First line\nsecond line with bold');
    expect(text(out[1])).toBe('Next paragraph');
    expect(out[2]).toMatchObject({ style: 'readMore' });
    expect(out[3]).toMatchObject({ listItem: 'bullet', level: 1 });
  });

  it('a URL alone on its line is an embed, as WordPress shows it', () => {
    const out = blocks('Watch this:\n\nhttps://www.youtube.com/watch?v=xyz\n\nDone.');
    expect(out.map((b) => b._type)).toEqual(['block', 'embed', 'block']);
    expect(out[1].url).toBe('https://www.youtube.com/watch?v=xyz');
  });

  it('[caption], [gallery], [embed], [audio] and Jetpack shortcodes become blocks', () => {
    const r = convert(
      'Before [caption id="attachment_7" width="300"]<a href="https://example.com/full.jpg"><img class="wp-image-7" src="https://example.com/a.jpg" alt="Alt" /></a> The <em>caption</em>[/caption] after\n\n' +
        '[gallery ids="3,4" columns="2"]\n\n[embed]https://vimeo.com/1[/embed]\n\n[audio src="https://example.com/a.mp3"]\n\n[youtube https://www.youtube.com/watch?v=q]',
      { attachmentById: (id: number) => (id === 3 ? { url: 'https://example.com/3.jpg', alt: 'Three' } : undefined) },
    );
    checkPortableText(r.blocks, ['content']);
    const b = r.blocks as Obj[];
    expect(b.map((x) => x._type)).toEqual(['block', 'image', 'block', 'gallery', 'embed', 'audio', 'embed']);
    expect(text(b[0])).toBe('Before');
    expect(b[1]).toMatchObject({
      src: 'https://example.com/a.jpg',
      caption: 'The caption',
      href: 'https://example.com/full.jpg',
    });
    expect(text(b[2])).toBe('after');
    expect(b[3]).toMatchObject({ attachmentIds: [3, 4], columns: 2 });
    expect(b[3].images).toHaveLength(1);
    expect(b[4].url).toBe('https://vimeo.com/1');
    expect(b[5].src).toBe('https://example.com/a.mp3');
    expect(b[6]).toMatchObject({ url: 'https://www.youtube.com/watch?v=q', provider: 'youtube' });
    // Attachment 4 was not found: reported, not dropped (its ID stays on the block).
    expect(r.unconverted.map((u) => u.kind)).toEqual(['shortcode:gallery']);
  });

  it('unknown shortcodes stay as written and are counted', () => {
    const r = convert('Hello [contact-form to="a@b.c"] and [/contact-form] bye');
    expect(text(r.blocks[0] as Obj)).toBe('Hello [contact-form to="a@b.c"] and [/contact-form] bye');
    expect(r.unconverted).toEqual([expect.objectContaining({ kind: 'shortcode:contact-form', count: 1 })]);
  });
});

describe('safety', () => {
  it('unsafe links and image addresses never reach the value', () => {
    const r = convert(
      '<p><a href="javascript:alert(1)">x</a> <img src="javascript:alert(2)"> <img src="data:image/png;base64,AAAA"></p>',
    );
    checkPortableText(r.blocks, ['content']);
    expect(JSON.stringify(r.blocks)).not.toMatch(/"(href|src)":"(javascript|data):/);
    expect(r.unconverted.map((u) => u.kind).sort()).toEqual(['image', 'link']);
  });

  it('scripts, forms and other program markup are kept as html blocks, not as text', () => {
    const r = convert('<p>a</p><script>alert(1)</script><form><input name=x></form>');
    expect(r.blocks.map((b) => b._type)).toEqual(['block', 'html', 'html']);
    expect(r.unconverted.map((u) => u.kind)).toEqual(['html:script', 'html:form']);
  });

  it('NUL and lone surrogates are replaced so both databases store the text', () => {
    const r = convert('<p>a\u0000b\ud800c</p>');
    expect(text(r.blocks[0] as Obj)).toBe('a\uFFFDb\uFFFDc');
  });

  it('deep nesting is bounded and keeps its text', () => {
    const html = `${'<div><span>'.repeat(5000)}deep${'</span></div>'.repeat(5000)}`;
    const r = convert(html);
    expect(text(r.blocks[0] as Obj)).toBe('deep');
    expect(r.unconverted.map((u) => u.kind)).toEqual(['nesting']);
  });

  it('hostile shortcode and comment soup converts in linear time', () => {
    // Linear means four times the input costs about four times as long; a quadratic parser would
    // take sixteen. Comparing the two sizes (best of three each) holds on a busy machine, where a
    // bound in milliseconds would not.
    const soups: Array<(n: number) => string> = [
      (n) => '[a '.repeat(n),
      (n) => '[caption]'.repeat(n),
      (n) => '<!-- wp:group -->'.repeat(n),
      (n) => `${'['.repeat(n)}x`,
    ];
    const best = (html: string) => {
      let fastest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const r = convert(html);
        fastest = Math.min(fastest, performance.now() - t0);
        checkPortableText(r.blocks, ['content']);
      }
      return fastest;
    };
    for (const soup of soups) {
      const small = best(soup(10_000));
      const large = best(soup(40_000));
      expect(large / Math.max(small, 1), soup(3)).toBeLessThan(10);
    }
  });
});

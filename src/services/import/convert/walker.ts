/**
 * The HTML walk: elements to Portable Text blocks, marks and links. Block-editor comments and
 * shortcodes found in a sibling run are handed to their own modules; everything else is plain
 * HTML. Text runs in one of three modes: `classic` (wpautop: a blank line starts a paragraph,
 * a single newline is a line break), `block` (HTML whitespace collapsing) and `pre` (kept).
 */
import type { ChildNode, Element } from 'domhandler';
import { checkUrl } from '../../fields/url.js';
import { attr, classes, isElement, rawOf, squash, textOf } from './dom.js';
import { codeBlock, figure, media, table } from './media.js';
import { type LinkMark, type Mark, Out, type ParaShape } from './out.js';
import { textWithShortcodes } from './shortcode-blocks.js';
import type { ConvertContext } from './types.js';
import { blockComment, wpBlock } from './wp-blocks.js';

export type Mode = 'classic' | 'block' | 'pre';

export interface St {
  marks: readonly Mark[];
  link?: LinkMark;
  shape: ParaShape;
  mode: Mode;
  depth: number;
}

/** Element nesting followed before the rest of a subtree is kept as its text (stack and output stay bounded). */
export const MAX_DEPTH = 40;

const DECORATORS: Record<string, string> = {
  strong: 'strong',
  b: 'strong',
  em: 'em',
  i: 'em',
  u: 'underline',
  ins: 'underline',
  s: 'strike-through',
  strike: 'strike-through',
  del: 'strike-through',
  code: 'code',
  kbd: 'code',
  samp: 'code',
  tt: 'code',
  sub: 'sub',
  sup: 'sup',
};

const BLOCK_CONTAINERS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'nav',
  'address',
  'center',
  'hgroup',
  'fieldset',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
  'figcaption',
  'caption',
  'li',
  'body',
  'html',
]);

/** Elements whose content is program, form or drawing markup rather than text: kept verbatim and reported. */
const KEPT_RAW = new Set([
  'script',
  'style',
  'form',
  'svg',
  'math',
  'canvas',
  'noscript',
  'template',
  'select',
  'textarea',
  'input',
]);
const INVISIBLE = new Set(['head', 'meta', 'link', 'title', 'wbr', 'source', 'track', 'param', 'colgroup', 'col']);

export class Walker {
  readonly out = new Out();
  constructor(
    readonly source: string,
    readonly ctx: ConvertContext,
  ) {}

  /** A sibling run: block comments pair up with their closers; text may hold shortcodes. */
  nodes(list: ReadonlyArray<ChildNode | string>, st: St, from = 0, to = list.length): void {
    for (let i = from; i < to; i++) {
      const n = list[i];
      if (typeof n === 'string') {
        this.text(n, st);
        continue;
      }
      if (n.type === 'comment') {
        const c = blockComment(n.data);
        if (c) {
          i = wpBlock(this, list, i, to, c, st);
          continue;
        }
        this.comment(n.data, st);
        continue;
      }
      if (n.type === 'text') {
        if (st.mode === 'pre' || n.data.indexOf('[') === -1) this.text(n.data, st);
        else i = textWithShortcodes(this, list, i, to, st);
        continue;
      }
      if (n.type === 'cdata') {
        this.text(textOf([n]), st);
        continue;
      }
      if (isElement(n)) this.element(n, st);
    }
  }

  /** Classic `<!--more-->` and `<!--nextpage-->`; other comments are not content. */
  comment(data: string, st: St): void {
    const t = data.trim().toLowerCase();
    if (t === 'more' || t.startsWith('more ')) this.out.object('break', { style: 'readMore' });
    else if (t === 'nextpage') this.out.object('break', { style: 'pageBreak' });
    void st;
  }

  text(data: string, st: St): void {
    const out = this.out;
    if (st.mode === 'pre') {
      out.text(data, st.marks, st.shape);
      return;
    }
    if (st.mode === 'block') {
      this.collapsed(data.replace(/[ \t\n\r\f]+/g, ' '), st);
      return;
    }
    // classic: wpautop's rules. A blank line ends the paragraph, a single newline is a line break.
    const lines = data.split('\n');
    let breaks = 0;
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) breaks++;
      const line = lines[i].replace(/[ \t\f\r]+/g, ' ');
      if (line.trim() === '') continue;
      if (breaks >= 2) this.flush(st);
      else if (breaks === 1) this.lineBreak(st);
      breaks = 0;
      this.collapsed(line, st);
    }
    if (breaks >= 2) this.flush(st);
    else if (breaks === 1) this.lineBreak(st);
  }

  private lineBreak(st: St): void {
    const prev = this.out.lastChar();
    if (prev === '' || prev === '\n') return;
    this.out.text('\n', st.marks, st.shape);
  }

  /** Adds text without doubling the space at span boundaries or after a line break. */
  private collapsed(text: string, st: St): void {
    let t = text;
    if (t.startsWith(' ')) {
      const prev = this.out.lastChar();
      if (prev === '' || prev === ' ' || prev === '\n') t = t.slice(1);
    }
    this.out.text(t, st.marks, st.shape);
  }

  /** Closes the open paragraph; in classic content a paragraph that is only an address becomes an embed (oEmbed). */
  flush(st: St): void {
    const block = this.out.flush();
    if (!block || st.mode !== 'classic' || block.listItem || block.style !== 'normal') return;
    if (block.children.length !== 1 || block.children[0].marks.length) return;
    const url = block.children[0].text;
    if (!/^https?:\/\/[^\s]+$/i.test(url) || checkUrl(url)) return;
    this.out.blocks.pop();
    this.out.object('embed', { url });
  }

  /** Keeps markup verbatim as an `html` block and counts it. */
  keepRaw(nodes: ChildNode[], kind: string, reason: string, extra: Record<string, unknown> = {}): void {
    const html = nodes.length ? rawOf(this.source, nodes[0], nodes[nodes.length - 1]) : '';
    this.out.object('html', { html, ...extra, reason });
    this.out.report(kind, reason);
  }

  element(el: Element, st: St): void {
    const tag = el.name.toLowerCase();
    if (st.depth >= MAX_DEPTH) {
      this.out.report('nesting', `markup nested deeper than ${MAX_DEPTH} levels kept as plain text`);
      this.text(textOf(el.children), { ...st, mode: st.mode === 'pre' ? 'pre' : 'block' });
      return;
    }
    const inner: St = { ...st, depth: st.depth + 1 };
    const deco = DECORATORS[tag];
    if (deco) {
      this.nodes(el.children, { ...inner, marks: [...st.marks, deco] });
      return;
    }
    switch (tag) {
      case 'a':
        this.anchor(el, inner);
        return;
      case 'br':
        this.out.text('\n', st.marks, st.shape);
        return;
      case 'img':
      case 'video':
      case 'audio':
      case 'iframe':
      case 'embed':
      case 'object':
        media(this, el, inner);
        return;
      case 'figure':
        figure(this, el, inner);
        return;
      case 'table':
        table(this, el, inner);
        return;
      case 'pre':
        this.pre(el, inner);
        return;
      case 'hr':
        this.flush(st);
        this.out.object('break', { style: 'separator' });
        return;
      case 'ul':
      case 'ol':
      case 'menu':
        this.list(el, tag === 'ol' ? 'number' : 'bullet', inner);
        return;
      case 'blockquote':
        this.flush(st);
        this.nodes(el.children, { ...inner, shape: { ...st.shape, style: 'blockquote' } });
        this.flush(st);
        return;
    }
    if (tag.length === 2 && tag[0] === 'h' && tag[1] >= '1' && tag[1] <= '6') {
      this.flush(st);
      this.nodes(el.children, { ...inner, shape: { style: tag } });
      this.flush(st);
      return;
    }
    if (KEPT_RAW.has(tag)) {
      this.flush(st);
      this.keepRaw([el], `html:${tag}`, `<${tag}> markup has no Portable Text form`);
      return;
    }
    if (INVISIBLE.has(tag)) return;
    if (BLOCK_CONTAINERS.has(tag)) {
      this.flush(st);
      this.nodes(el.children, inner);
      this.flush(st);
      return;
    }
    // span, font, abbr, small, cite, mark, label, time, q, … and unknown tags: their text flows on.
    this.nodes(el.children, inner);
  }

  private anchor(el: Element, st: St): void {
    const href = attr(el, 'href');
    if (!href) {
      this.nodes(el.children, st);
      return;
    }
    if (checkUrl(href)) {
      this.out.report(
        'link',
        'link address that is not http(s), mailto:, tel:, site-relative or #fragment kept as text',
      );
      this.nodes(el.children, st);
      return;
    }
    const link: LinkMark = { href };
    this.nodes(el.children, { ...st, link, marks: [...st.marks, link] });
  }

  private list(el: Element, kind: 'bullet' | 'number', st: St): void {
    this.flush(st);
    const level = (st.shape.listItem ? (st.shape.level ?? 1) : 0) + 1;
    const shape: ParaShape = { style: st.shape.style, listItem: kind, level };
    for (const child of el.children) {
      if (isElement(child) && child.name.toLowerCase() === 'li') {
        this.flush(st);
        this.nodes(child.children, { ...st, depth: st.depth + 1, shape });
        this.flush(st);
      } else {
        this.nodes([child], { ...st, shape });
      }
    }
    this.flush(st);
  }

  private pre(el: Element, st: St): void {
    this.flush(st);
    const kids = el.children.filter((c) => !(c.type === 'text' && c.data.trim() === ''));
    const onlyCode = kids.length === 1 && isElement(kids[0]) && kids[0].name.toLowerCase() === 'code';
    if (onlyCode || classes(el).includes('wp-block-code')) {
      codeBlock(this, el, onlyCode ? (kids[0] as Element) : el);
      return;
    }
    // Preformatted text and verse: a paragraph whose line breaks and spacing are kept.
    this.nodes(el.children, { ...st, mode: 'pre' });
    this.flush(st);
  }
}

export { squash };

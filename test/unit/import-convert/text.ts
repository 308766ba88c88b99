/** Plain text of converter input and output, so tests can prove no words were lost or invented. */
import { DomUtils, parseDocument } from 'htmlparser2';

type Obj = Record<string, unknown>;

export function htmlText(html: string): string {
  return DomUtils.textContent(parseDocument(html).children);
}

/**
 * Every text the blocks carry, in order: spans, captions, code, table cells, kept HTML, embed
 * addresses. Shortcodes carry addresses and captions inside their `[…]` tags, which the input
 * side leaves out, so those two count only when the input shows them as text (`input`).
 */
export function blocksText(blocks: unknown[], input = ''): string {
  const seen = comparable(htmlText(input));
  const shown = (v: unknown) => (v && seen.includes(comparable(String(v))) ? String(v) : '');
  let out = '';
  for (const raw of blocks) {
    const b = raw as Obj;
    switch (b._type) {
      case 'block':
        out += (b.children as Obj[]).map((c) => String(c.text ?? '')).join('');
        break;
      case 'html':
        out += htmlText(String(b.html));
        break;
      case 'code':
        out += String(b.code);
        break;
      case 'table':
        out += (b.rows as Obj[]).map((r) => (r.cells as string[]).join(' ')).join(' ');
        out += String(b.caption ?? '');
        break;
      case 'gallery':
        out += (b.images as Obj[]).map((i) => String(i.caption ?? '')).join(' ');
        out += String(b.caption ?? '');
        break;
      case 'embed':
        out += shown(b.url) + String(b.caption ?? '');
        break;
      default:
        out += shown(b.caption);
    }
    out += '\n';
  }
  return out;
}

/**
 * Text compared modulo whitespace and shortcode tags: a converted shortcode leaves its tag
 * behind by design (its meaning moved into a block), so `[…]` runs are left out on both sides.
 */
export function comparable(text: string): string {
  let out = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === '[') depth++;
    else if (ch === ']' && depth > 0) depth--;
    else if (depth === 0 && ch.trim() !== '') out += ch;
  }
  return out;
}

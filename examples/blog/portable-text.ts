/**
 * Portable Text to HTML for the example blog: blocks (normal, h1–h6, blockquote), bullet and
 * number lists, the marks strong, em, code, underline, strike-through and links, and image
 * blocks. Everything from the CMS is escaped; unknown block types are left out.
 */

export interface PtSpan {
  _type: 'span';
  _key?: string;
  text: string;
  marks?: string[];
}

export interface PtBlock {
  _type: string;
  _key?: string;
  style?: string;
  listItem?: 'bullet' | 'number';
  level?: number;
  children?: PtSpan[];
  markDefs?: Array<{ _key: string; _type: string; href?: string }>;
  [key: string]: unknown;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const DECORATORS: Record<string, string> = {
  strong: 'strong',
  em: 'em',
  code: 'code',
  underline: 'u',
  'strike-through': 's',
};

const STYLES = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote']);

function safeHref(href: string | undefined): string | null {
  if (!href) return null;
  return /^(https?:|mailto:|\/|#)/i.test(href) ? href : null;
}

function spans(block: PtBlock): string {
  const defs = new Map((block.markDefs ?? []).map((d) => [d._key, d]));
  return (block.children ?? [])
    .map((span) => {
      let html = escapeHtml(String(span.text ?? '')).replace(/\n/g, '<br>');
      for (const mark of span.marks ?? []) {
        const tag = DECORATORS[mark];
        if (tag) html = `<${tag}>${html}</${tag}>`;
        else {
          const def = defs.get(mark);
          const href = def?._type === 'link' ? safeHref(def.href) : null;
          if (href) html = `<a href="${escapeHtml(href)}">${html}</a>`;
        }
      }
      return html;
    })
    .join('');
}

export type ImageRenderer = (value: Record<string, unknown>) => string;

export function portableTextToHtml(blocks: unknown, renderImage: ImageRenderer): string {
  if (!Array.isArray(blocks)) return '';
  const out: string[] = [];
  let list: { tag: 'ul' | 'ol'; level: number } | null = null;
  const closeList = () => {
    if (list) out.push(`</${list.tag}>`);
    list = null;
  };
  for (const block of blocks as PtBlock[]) {
    if (!block || typeof block !== 'object') continue;
    if (block._type === 'block' && block.listItem) {
      const tag = block.listItem === 'number' ? 'ol' : 'ul';
      if (!list || list.tag !== tag) {
        closeList();
        out.push(`<${tag}>`);
        list = { tag, level: block.level ?? 1 };
      }
      out.push(`<li>${spans(block)}</li>`);
      continue;
    }
    closeList();
    if (block._type === 'block') {
      const tag = block.style && STYLES.has(block.style) ? block.style : 'p';
      out.push(`<${tag}>${spans(block)}</${tag}>`);
    } else if (block._type === 'image') {
      const value = (block.asset ?? block.image ?? block) as Record<string, unknown>;
      out.push(`<figure>${renderImage(value)}</figure>`);
    }
  }
  closeList();
  return out.join('\n');
}

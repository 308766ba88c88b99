/**
 * Block-editor markup: `<!-- wp:name {attrs} -->…<!-- /wp:name -->` and `<!-- wp:name /-->`.
 * Blocks whose saved HTML carries their content are walked as HTML (the comment only tells
 * the mode); the rest are kept verbatim as `html` blocks and counted, reusable blocks become
 * `reusableBlock` references.
 */
import type { ChildNode } from 'domhandler';
import { checkUrl } from '../../fields/url.js';
import { rawOf } from './dom.js';
import type { St, Walker } from './walker.js';

export interface BlockComment {
  /** Namespaced name: `core/paragraph`, `jetpack/map`. */
  name: string;
  attrs: Record<string, unknown>;
  closing: boolean;
  selfClosing: boolean;
}

/** Blocks whose saved HTML holds all of their content: converting the HTML converts the block. */
const STATIC = new Set(
  [
    'paragraph',
    'heading',
    'list',
    'list-item',
    'quote',
    'pullquote',
    'verse',
    'preformatted',
    'code',
    'table',
    'separator',
    'image',
    'gallery',
    'columns',
    'column',
    'group',
    'cover',
    'cover-image',
    'media-text',
    'buttons',
    'button',
    'details',
    'audio',
    'video',
    'file',
    'embed',
    'more',
    'nextpage',
    'spacer',
    'text-columns',
    'subhead',
  ].map((n) => `core/${n}`),
);

/** Parses a comment's text as a block delimiter, or null when it is an ordinary comment. */
export function blockComment(data: string): BlockComment | null {
  // Cheap refusal first: most comments in a post are delimiters, the rest are rare.
  const k = data.indexOf('wp:');
  if (k === -1 || k > 8) return null;
  const t = data.trim();
  const closing = t.startsWith('/wp:');
  if (!closing && !t.startsWith('wp:')) return null;
  const body = t.slice(closing ? 4 : 3);
  let end = 0;
  while (end < body.length && body[end] !== ' ' && body[end] !== '\n' && body[end] !== '\t' && body[end] !== '/') end++;
  // `wp:name/` without a space before the slash is also self-closing
  if (body[end] === '/' && end + 1 < body.length && body[end + 1] !== ' ') {
    // a namespace separator: read the second part of the name
    end++;
    while (end < body.length && body[end] !== ' ' && body[end] !== '\n' && body[end] !== '\t' && body[end] !== '/')
      end++;
  }
  const rawName = body.slice(0, end);
  if (!rawName) return null;
  let rest = body.slice(end).trim();
  const selfClosing = rest.endsWith('/');
  if (selfClosing) rest = rest.slice(0, -1).trim();
  let attrs: Record<string, unknown> = {};
  if (rest.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(rest);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) attrs = parsed as Record<string, unknown>;
    } catch {
      // Broken attributes: the block's HTML still converts; only the attributes are lost.
    }
  }
  const name = rawName.includes('/') ? rawName : `core/${rawName}`;
  return { name: name.toLowerCase(), attrs, closing, selfClosing };
}

type List = ReadonlyArray<ChildNode | string>;

/**
 * Opener index → closer index for every block comment pair in a sibling list, found in one
 * pass (one stack per block name: a closer pairs with the nearest open block of its name).
 * Cached per list, so nested blocks of one list cost nothing more.
 */
const pairs = new WeakMap<List, Map<number, number>>();

function closerOf(list: List, i: number): number {
  let map = pairs.get(list);
  if (!map) {
    map = new Map();
    const open = new Map<string, number[]>();
    for (let j = 0; j < list.length; j++) {
      const n = list[j];
      if (typeof n === 'string' || n.type !== 'comment') continue;
      const c = blockComment(n.data);
      if (!c || c.selfClosing) continue;
      const stack = open.get(c.name) ?? [];
      open.set(c.name, stack);
      if (!c.closing) stack.push(j);
      else if (stack.length) map.set(stack.pop() as number, j);
    }
    pairs.set(list, map);
  }
  return map.get(i) ?? -1;
}

/** Block comments nested deeper than this are read as plain HTML (the stack stays bounded). */
const MAX_BLOCK_DEPTH = 40;

/** Converts the block that starts at `list[i]`; returns the index of its last node. */
export function wpBlock(w: Walker, list: List, i: number, to: number, c: BlockComment, st: St): number {
  if (c.closing) return i; // a stray closer: the HTML around it converts on its own
  const close = c.selfClosing ? i : closerOf(list, i);
  // An unclosed opener (or one nested too deep): its content follows as ordinary HTML.
  if (close === -1 || close >= to || st.depth >= MAX_BLOCK_DEPTH) return i;
  const open = list[i] as ChildNode;
  const last = list[close] as ChildNode;
  const blockSt: St = { ...st, mode: 'block', depth: st.depth + 1 };
  if (c.name === 'core/block') {
    const ref = c.attrs.ref;
    if (typeof ref === 'number' && Number.isSafeInteger(ref) && ref > 0) {
      w.flush(st);
      w.out.object('reusableBlock', { ref });
      if (!w.out.refs.includes(ref)) w.out.refs.push(ref);
    } else {
      w.flush(st);
      w.keepRaw([open, last], 'core/block', 'reusable block without a valid reference');
    }
    return close;
  }
  if (STATIC.has(c.name) || c.name.startsWith('core-embed/')) {
    w.flush(st);
    const before = w.out.blocks.length;
    w.nodes(list, blockSt, i + 1, close);
    w.flush(blockSt);
    coverImage(w, c, before);
    return close;
  }
  if (c.name === 'core/freeform' || c.name === 'core/shortcode') {
    // Classic content and shortcodes are stored raw; WordPress formats them with wpautop.
    w.flush(st);
    w.nodes(list, { ...blockSt, mode: 'classic' }, i + 1, close);
    w.flush({ ...st, mode: 'classic' });
    return close;
  }
  w.flush(st);
  if (c.name === 'core/html') {
    const html = close > i + 1 ? rawOf(w.source, list[i + 1] as ChildNode, list[close - 1] as ChildNode).trim() : '';
    w.out.object('html', { html, blockName: c.name, reason: 'custom HTML block kept as written' });
    w.out.report(c.name, 'custom HTML block kept as written');
    return close;
  }
  const reason = c.name.startsWith('core/')
    ? 'block drawn by the source site when a page is viewed (no content in the post to convert)'
    : 'block from a plugin or theme kept as written';
  // The attributes stay inside the kept markup; loose copies could carry unchecked link fields.
  w.keepRaw([open, last], c.name, reason, { blockName: c.name });
  return close;
}

/** Older cover blocks keep their image only in the block's attributes (a CSS background). */
function coverImage(w: Walker, c: BlockComment, before: number): void {
  if (c.name !== 'core/cover' && c.name !== 'core/cover-image') return;
  const url = c.attrs.url;
  if (typeof url !== 'string' || checkUrl(url) || c.attrs.backgroundType === 'video') return;
  const made = w.out.blocks.slice(before);
  if (made.some((b) => b._type === 'image' && (b.src === url || b.sourceUrl === url))) return;
  const local = w.ctx.mediaBySourceUrl?.(url);
  const fields: Record<string, unknown> = local && local !== url ? { src: local, sourceUrl: url } : { src: url };
  fields.alt = typeof c.attrs.alt === 'string' ? c.attrs.alt : '';
  const img = { _type: 'image', _key: w.out.key(), ...fields };
  w.out.blocks.splice(before, 0, img);
}

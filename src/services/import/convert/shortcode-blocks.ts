/**
 * Shortcodes inside text: known ones become blocks ([caption], [gallery], [embed], [audio],
 * [video], [code], Jetpack embeds); unknown ones stay in the text exactly as written and are
 * counted, since their output only exists on the source site.
 */
import type { ChildNode, Element } from 'domhandler';
import { checkUrl } from '../../fields/url.js';
import { findAll, squash, textOf } from './dom.js';
import { media } from './media.js';
import { CloserFinder, readShortcodeTag, type ShortcodeTag, shortcodeEmbedUrl } from './shortcodes.js';
import type { PtObject } from './types.js';
import type { St, Walker } from './walker.js';

/** Shortcodes whose content sits between an opening and a closing tag. */
const ENCLOSING = new Set(['caption', 'wp_caption', 'embed', 'code', 'sourcecode']);
/** How many following siblings are searched for a closing tag that is not in the same text. */
const MAX_SIBLING_SEARCH = 50;

type Part = ChildNode | string;

/**
 * Converts the text node `list[i]` (which holds a `[`), consuming following siblings when an
 * enclosing shortcode spans them; returns the index of the last sibling consumed.
 */
export function textWithShortcodes(w: Walker, list: ReadonlyArray<Part>, i: number, to: number, st: St): number {
  const node = list[i];
  let s = typeof node === 'string' ? node : (node as { data: string }).data;
  let finder = new CloserFinder(s);
  let from = 0;
  let p = s.indexOf('[');
  let at = i;
  while (p !== -1) {
    const tag = readShortcodeTag(s, p);
    if (!('name' in tag) || tag.closing) {
      p = s.indexOf('[', 'name' in tag ? tag.end : tag.resume);
      continue;
    }
    if (!isKnown(tag)) {
      w.out.report(`shortcode:${tag.name}`, 'shortcode kept as text: its output is made by the source site');
      p = s.indexOf('[', tag.end);
      continue;
    }
    w.text(s.slice(from, p), st);
    if (ENCLOSING.has(tag.name) && !tag.selfClosing) {
      const close = finder.find(tag.name, tag.end);
      if (close !== -1) {
        enclosing(w, tag, [s.slice(tag.end, close)], st);
        from = close + tag.name.length + 3;
        p = s.indexOf('[', from);
        continue;
      }
      // The closing tag may sit in a later sibling text, with elements (an <img>) in between.
      const span = closerInSiblings(list, at + 1, to, tag.name);
      if (span) {
        enclosing(w, tag, [s.slice(tag.end), ...list.slice(at + 1, span.index), span.before], st);
        at = span.index;
        s = span.after;
        finder = new CloserFinder(s);
        from = 0;
        p = s.indexOf('[');
        continue;
      }
    }
    single(w, tag, st, s.slice(p, tag.end));
    from = tag.end;
    p = s.indexOf('[', from);
  }
  w.text(s.slice(from), st);
  return at;
}

function isKnown(tag: ShortcodeTag): boolean {
  if (ENCLOSING.has(tag.name) || tag.name === 'gallery' || tag.name === 'audio' || tag.name === 'video') return true;
  return shortcodeEmbedUrl(tag.name, tag.attrs, tag.positional) !== null;
}

function closerInSiblings(list: ReadonlyArray<Part>, start: number, to: number, name: string) {
  const needle = `[/${name}]`;
  const end = Math.min(to, start + MAX_SIBLING_SEARCH);
  for (let j = start; j < end; j++) {
    const n = list[j];
    const text = typeof n === 'string' ? n : n.type === 'text' ? n.data : null;
    if (text === null) continue;
    const k = text.toLowerCase().indexOf(needle);
    if (k !== -1) return { index: j, before: text.slice(0, k), after: text.slice(k + needle.length) };
  }
  return null;
}

function enclosing(w: Walker, tag: ShortcodeTag, inner: Part[], st: St): void {
  const nodes = inner.filter((n) => n !== '');
  const text = nodes.map((n) => (typeof n === 'string' ? n : textOf([n]))).join('');
  switch (tag.name) {
    case 'caption':
    case 'wp_caption':
      caption(w, tag, nodes, st);
      return;
    case 'code':
    case 'sourcecode': {
      const language = tag.attrs.language ?? tag.attrs.lang ?? tag.positional[0];
      w.flush(st);
      w.out.object('code', language ? { code: text.replace(/^\n/, ''), language } : { code: text.replace(/^\n/, '') });
      return;
    }
    default: {
      const url = squash(text) || tag.attrs.src || tag.attrs.url || '';
      embedOrReport(w, tag, url, st, `[${tag.name}]${text}[/${tag.name}]`);
    }
  }
}

/** `[caption]<a><img></a> Caption text[/caption]`: an image block with its caption and link. */
function caption(w: Walker, tag: ShortcodeTag, nodes: Part[], st: St): void {
  const elements = nodes.filter((n): n is ChildNode => typeof n !== 'string');
  const img = findAll(elements, (e) => e.name.toLowerCase() === 'img')[0];
  if (!img) {
    w.out.report('shortcode:caption', 'caption without an image kept as text');
    w.nodes(nodes, st);
    return;
  }
  // The caption is the text around the image (older exports put it in a caption="" attribute).
  const words = nodes
    .map((n) => (typeof n === 'string' ? n : findAll([n], (e) => e === img).length ? '' : textOf([n])))
    .join('');
  const cap = squash(words) || tag.attrs.caption || '';
  const anchor = findAll(
    elements,
    (e) => e.name.toLowerCase() === 'a' && findAll(e.children, (x) => x === img).length > 0,
  )[0];
  const href = anchor?.attribs.href?.trim();
  const linked = href && !checkUrl(href) ? { ...st, link: { href } } : st;
  media(w, img as Element, linked, cap || undefined);
}

function single(w: Walker, tag: ShortcodeTag, st: St, raw: string): void {
  if (tag.name === 'gallery') {
    galleryShortcode(w, tag, st);
    return;
  }
  if (tag.name === 'audio' || tag.name === 'video') {
    const exts =
      tag.name === 'audio'
        ? ['src', 'mp3', 'm4a', 'ogg', 'wav', 'wma']
        : ['src', 'mp4', 'm4v', 'webm', 'ogv', 'wmv', 'flv'];
    const src = exts.map((k) => tag.attrs[k]).find((v) => v && !checkUrl(v));
    if (!src) {
      w.out.report(`shortcode:${tag.name}`, `${tag.name} shortcode without a usable address kept as text`);
      w.text(raw, st);
      return;
    }
    w.flush(st);
    const local = w.ctx.mediaBySourceUrl?.(src);
    w.out.object(tag.name, local && local !== src ? { src: local, sourceUrl: src } : { src });
    return;
  }
  embedOrReport(w, tag, shortcodeEmbedUrl(tag.name, tag.attrs, tag.positional) ?? '', st, raw);
}

function embedOrReport(w: Walker, tag: ShortcodeTag, url: string, st: St, raw: string): void {
  if (!/^https?:\/\//i.test(url) || checkUrl(url)) {
    w.out.report(`shortcode:${tag.name}`, 'embed shortcode without a usable address kept as text');
    w.text(raw, st);
    return;
  }
  w.flush(st);
  w.out.object('embed', tag.name === 'embed' ? { url } : { url, provider: tag.name });
}

/**
 * `[gallery ids="1,2,3"]`: the images come from attachment IDs. With a resolver they become
 * images; the IDs stay on the block either way so the importer can link the media later.
 */
function galleryShortcode(w: Walker, tag: ShortcodeTag, st: St): void {
  const ids = (tag.attrs.ids ?? tag.attrs.include ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => /^\d{1,12}$/.test(v))
    .map(Number);
  const images: PtObject[] = [];
  for (const id of ids) {
    const a = w.ctx.attachmentById?.(id);
    if (!a || checkUrl(a.url)) continue;
    const local = w.ctx.mediaBySourceUrl?.(a.url);
    const img: PtObject = {
      _type: 'image',
      _key: w.out.key(),
      src: local ?? a.url,
      alt: a.alt ?? '',
      attachmentId: id,
    };
    if (local && local !== a.url) img.sourceUrl = a.url;
    if (a.caption) img.caption = a.caption;
    images.push(img);
  }
  w.flush(st);
  const fields: Record<string, unknown> = { images, attachmentIds: ids };
  const columns = Number(tag.attrs.columns);
  if (Number.isSafeInteger(columns) && columns > 0 && columns < 20) fields.columns = columns;
  w.out.object('gallery', fields);
  if (images.length < ids.length || ids.length === 0) {
    w.out.report(
      'shortcode:gallery',
      ids.length
        ? 'gallery images given by attachment ID were not all found'
        : "gallery of the post's attached images: no image list in the content",
    );
  }
}

/** Images, galleries, embeds, audio and video, tables and code: the block objects of a post. */
import type { ChildNode, Element } from 'domhandler';
import { checkUrl } from '../../fields/url.js';
import { attr, classes, findAll, isElement, squash, textOf } from './dom.js';
import type { PtObject } from './types.js';
import type { St, Walker } from './walker.js';

const MEDIA_TAGS = new Set(['img', 'video', 'audio', 'iframe', 'embed', 'object']);

/** An http(s) or site-relative address, or null (data: URIs, scripts, junk). */
function safeUrl(value: string | undefined): string | null {
  if (!value) return null;
  return checkUrl(value) ? null : value;
}

/** `src` as the site should use it: the media library copy when the importer knows one. */
function mapped(w: Walker, src: string): { src: string; sourceUrl?: string } {
  const local = w.ctx.mediaBySourceUrl?.(src);
  return local && local !== src ? { src: local, sourceUrl: src } : { src };
}

function num(v: string | undefined): number | undefined {
  if (!v || !/^\d{1,6}$/.test(v)) return undefined;
  return Number(v);
}

/** WordPress marks attachment images with a `wp-image-123` class. */
function attachmentId(el: Element): number | undefined {
  for (const c of classes(el)) {
    if (c.startsWith('wp-image-')) return num(c.slice(9));
  }
  return undefined;
}

/** The fields of an image object, or null when its address cannot be used. */
export function imageFields(w: Walker, img: Element, st: St, caption?: string): Record<string, unknown> | null {
  const raw = attr(img, 'src') ?? attr(img, 'data-src');
  const src = safeUrl(raw);
  if (!src) return null;
  const fields: Record<string, unknown> = { ...mapped(w, src), alt: attr(img, 'alt') ?? '' };
  if (caption) fields.caption = caption;
  if (st.link) fields.href = st.link.href;
  const title = attr(img, 'title');
  if (title) fields.title = title;
  const width = num(attr(img, 'width'));
  const height = num(attr(img, 'height'));
  if (width) fields.width = width;
  if (height) fields.height = height;
  const id = attachmentId(img);
  if (id) fields.attachmentId = id;
  return fields;
}

/** One media element as a block object; unusable addresses keep the markup as an html block. */
export function media(w: Walker, el: Element, st: St, caption?: string): void {
  const tag = el.name.toLowerCase();
  w.flush(st);
  if (tag === 'img') {
    const fields = imageFields(w, el, st, caption);
    if (fields) w.out.object('image', fields);
    else w.keepRaw([el], 'image', 'image without an http(s) or site-relative address');
    return;
  }
  if (tag === 'video' || tag === 'audio') {
    const source = findAll(el.children, (e) => e.name.toLowerCase() === 'source')[0];
    const src = safeUrl(attr(el, 'src') ?? (source ? attr(source, 'src') : undefined));
    if (!src) {
      w.keepRaw([el], tag, `${tag} without an http(s) or site-relative address`);
      return;
    }
    const fields: Record<string, unknown> = mapped(w, src);
    if (caption) fields.caption = caption;
    const poster = safeUrl(attr(el, 'poster'));
    if (poster) fields.poster = poster;
    w.out.object(tag, fields);
    return;
  }
  const url = safeUrl(tag === 'object' ? attr(el, 'data') : attr(el, 'src'));
  if (!url) {
    w.keepRaw([el], `html:${tag}`, `<${tag}> without an http(s) address`);
    return;
  }
  w.out.object('embed', caption ? { url, caption } : { url });
}

/** `<figure>`: gallery, embed, table, or one media element with its caption; otherwise a plain container. */
export function figure(w: Walker, el: Element, st: St): void {
  const cls = classes(el);
  w.flush(st);
  if (cls.includes('wp-block-gallery') || cls.includes('gallery')) {
    gallery(w, el, st);
    return;
  }
  const captionEl = el.children.find((c): c is Element => isElement(c) && c.name.toLowerCase() === 'figcaption');
  const caption = captionEl ? squash(textOf(captionEl.children)) : '';
  if (cls.includes('wp-block-embed') || cls.some((c) => c.startsWith('wp-block-embed-'))) {
    const wrapper = findAll(el.children, (e) => classes(e).includes('wp-block-embed__wrapper'))[0];
    const url = squash(textOf(wrapper ? wrapper.children : el.children.filter((c) => c !== captionEl)));
    if (safeUrl(url) && /^https?:\/\//i.test(url)) {
      const provider = cls.find((c) => c.startsWith('is-provider-'))?.slice(12);
      const fields: Record<string, unknown> = { url };
      if (provider) fields.provider = provider;
      if (caption) fields.caption = caption;
      w.out.object('embed', fields);
      return;
    }
  }
  const rest = el.children.filter((c) => c !== captionEl);
  const tables = findAll(rest, (e) => e.name.toLowerCase() === 'table');
  if (tables.length === 1) {
    w.nodes(
      rest.filter((c) => !(isElement(c) && findAll([c], (e) => e === tables[0]).length)),
      st,
    );
    table(w, tables[0], st, caption);
    return;
  }
  const found = findAll(rest, (e) => MEDIA_TAGS.has(e.name.toLowerCase()));
  if (found.length === 1 && squash(textOf(rest)) === '') {
    const only = found[0];
    // An image inside a link keeps the link as the image's href.
    const anchor = findAll(
      rest,
      (e) => e.name.toLowerCase() === 'a' && findAll(e.children, (x) => x === only).length > 0,
    )[0];
    const href = anchor ? safeUrl(attr(anchor, 'href')) : null;
    media(w, only, href ? { ...st, link: { href } } : st, caption || undefined);
    return;
  }
  w.nodes(el.children, st);
  w.flush(st);
}

/** A gallery: every image in it, each with its own caption, plus the gallery's caption. */
export function gallery(w: Walker, el: Element, st: St): void {
  const images: PtObject[] = [];
  const bad: Element[] = [];
  const imgs = findAll(el.children, (e) => e.name.toLowerCase() === 'img');
  for (const img of imgs) {
    const fig = closestFigure(el, img);
    const cap = fig
      ? fig.children.find((c): c is Element => isElement(c) && c.name.toLowerCase() === 'figcaption')
      : undefined;
    const fields = imageFields(
      w,
      img,
      { ...st, link: undefined },
      cap ? squash(textOf(cap.children)) || undefined : undefined,
    );
    if (fields) images.push({ _type: 'image', _key: w.out.key(), ...fields });
    else bad.push(img);
  }
  // The gallery's own caption is its direct figcaption; each image's caption sits inside that image's figure.
  const own = el.children.find((c): c is Element => isElement(c) && c.name.toLowerCase() === 'figcaption');
  const fields: Record<string, unknown> = { images };
  if (own) fields.caption = squash(textOf(own.children));
  w.out.object('gallery', fields);
  if (bad.length) w.keepRaw(bad, 'image', 'image without an http(s) or site-relative address');
}

/** The figure (or list item) directly holding `img` inside `root`, found by walking down. */
function closestFigure(root: Element, img: Element): Element | undefined {
  let found: Element | undefined;
  const walk = (el: Element, holder: Element | undefined, depth: number): boolean => {
    if (depth > 20) return false;
    for (const c of el.children) {
      if (!isElement(c)) continue;
      if (c === img) {
        found = holder;
        return true;
      }
      const tag = c.name.toLowerCase();
      if (walk(c, tag === 'figure' || tag === 'li' ? c : holder, depth + 1)) return true;
    }
    return false;
  };
  walk(root, undefined, 0);
  return found;
}

/** A table as rows of plain-text cells; `headerRows` counts the rows of its head. */
export function table(w: Walker, el: Element, st: St, caption?: string): void {
  w.flush(st);
  const rows: PtObject[] = [];
  let headerRows = 0;
  let cap = caption ?? '';
  const addRows = (nodes: ChildNode[], head: boolean) => {
    for (const n of nodes) {
      if (!isElement(n)) continue;
      const tag = n.name.toLowerCase();
      if (tag === 'tr') {
        const cells = n.children
          .filter((c): c is Element => isElement(c) && (c.name.toLowerCase() === 'td' || c.name.toLowerCase() === 'th'))
          .map((c) => squash(textOf(c.children)));
        rows.push({ _type: 'tableRow', _key: w.out.key(), cells });
        if (head) headerRows++;
      } else if (tag === 'thead') addRows(n.children, true);
      else if (tag === 'tbody' || tag === 'tfoot') addRows(n.children, false);
      else if (tag === 'caption' && !cap) cap = squash(textOf(n.children));
    }
  };
  addRows(el.children, false);
  const fields: Record<string, unknown> = { rows };
  if (headerRows) fields.headerRows = headerRows;
  if (cap) fields.caption = cap;
  w.out.object('table', fields);
}

/** `<pre><code>`: the code exactly as written, with the language when the markup names one. */
export function codeBlock(w: Walker, pre: Element, code: Element): void {
  let language: string | undefined;
  for (const c of [...classes(code), ...classes(pre)]) {
    if (c.startsWith('language-')) language = c.slice(9);
    else if (c.startsWith('lang-')) language = c.slice(5);
  }
  const text = textOf(code.children).replace(/^\n/, '');
  w.out.object('code', language ? { code: text, language } : { code: text });
}

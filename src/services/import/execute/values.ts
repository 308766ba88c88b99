import { checkSlug, slugify } from '../../content/slugs.js';
import type { CollectionInfo, FieldInfo } from '../../schema/model.js';
import { metaFieldSlug } from '../post-types.js';
import { metaValue, type WxrItem } from '../wxr/model.js';

/** Turning one export item into an entry's slug, dates and field values. */

const BODY_SLUGS = ['body', 'content'];

function field(c: CollectionInfo, slugs: string[], types: string[]): FieldInfo | undefined {
  for (const s of slugs) {
    const f = c.fields.find((x) => x.slug === s && types.includes(x.type));
    if (f) return f;
  }
  return undefined;
}

/** The item's slug: WordPress's (percent-decoded), else one made from the title, else `<type>-<id>`. */
export function itemSlug(item: WxrItem): string {
  let raw = item.postName.trim();
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // keep the raw slug
  }
  const candidates = [raw, slugify(raw), slugify(item.title)];
  for (const s of candidates) {
    if (!s) continue;
    try {
      return checkSlug(s);
    } catch {
      // try the next form
    }
  }
  return `${item.postType || 'post'}-${item.postId || 'item'}`;
}

/** `2013-04-09 13:37:47` (GMT) or an RSS date to ISO 8601; null when absent or WordPress's zero date. */
export function itemDate(item: WxrItem): string | null {
  const gmt = item.postDateGmt.trim();
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(gmt) && !gmt.startsWith('0000')) {
    const d = new Date(`${gmt.replace(' ', 'T')}Z`);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  for (const raw of [item.pubDate, item.postDate]) {
    if (!raw || raw.startsWith('0000')) continue;
    const d = new Date(raw.includes(' ') && !raw.includes(',') ? `${raw.replace(' ', 'T')}Z` : raw);
    if (!Number.isNaN(d.getTime()) && d.getUTCFullYear() > 1970) return d.toISOString();
  }
  return null;
}

function coerce(f: FieldInfo, value: string): unknown {
  const v = value.trim();
  switch (f.type) {
    case 'integer':
      return /^-?\d{1,15}$/.test(v) ? Number(v) : undefined;
    case 'number':
      return v !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined;
    case 'boolean':
      return v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : undefined;
    case 'string':
    case 'text':
      return value;
    default:
      return undefined;
  }
}

/**
 * Field values for the entry: title, body (Portable Text), excerpt, and custom
 * fields whose key names a field of the collection. Only fields the
 * collection has are written; the rest of the item is not lost silently:
 * custom fields without a field are listed by the analysis.
 */
export function entryValues(c: CollectionInfo, item: WxrItem, blocks: unknown[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const title = field(c, ['title'], ['string', 'text']);
  if (title) {
    const t = item.title.trim();
    data[title.slug] = t || (title.required ? '(no title)' : null);
  }
  const body = field(c, BODY_SLUGS, ['portableText']);
  if (body) data[body.slug] = blocks;
  const excerpt = field(c, ['excerpt'], ['text', 'string']);
  if (excerpt && item.excerpt.trim()) data[excerpt.slug] = item.excerpt.trim();
  for (const m of item.meta) {
    if (m.key.startsWith('_')) continue;
    const slug = metaFieldSlug(m.key);
    if (!slug || Object.hasOwn(data, slug)) continue;
    const f = c.fields.find((x) => x.slug === slug && x.column !== null);
    if (!f) continue;
    const value = coerce(f, m.value);
    if (value !== undefined) data[slug] = value;
  }
  return data;
}

/** The featured image's attachment ID, when the item has one. */
export function thumbnailId(item: WxrItem): string | null {
  const v = metaValue(item, '_thumbnail_id')?.trim();
  return v && v !== '0' ? v : null;
}

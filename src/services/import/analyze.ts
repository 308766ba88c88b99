import type { FieldType } from '../fields/types.js';
import type { SchemaSnapshot } from '../schema/model.js';
import {
  defaultCollection,
  INTERNAL_POST_TYPES,
  INTERNAL_TAXONOMIES,
  isInternalType,
  isPingback,
  metaFieldSlug,
  type Review,
  review,
  type SuggestedField,
  sourceTermKey,
  suggestedFields,
  taxonomyName,
} from './post-types.js';
import type { WxrItem, WxrPlace, WxrRecord, WxrRepairs, WxrSite } from './wxr/model.js';

/**
 * The analyze stage: one streaming pass over the export that counts what it
 * holds and compares each content post type with the current schema. Only
 * counters are kept (bounded maps), never the items, so a 200 MB export is
 * analysed in flat memory.
 */

export interface PostTypeAnalysis {
  name: string;
  count: number;
  byStatus: Record<string, number>;
  /** Suggested target collection. */
  collection: string;
  fields: SuggestedField[];
  review: Review;
  /**
   * Comments on this type's items: `count` in the file, `skipped` by reason when imported into the
   * suggested collection — `pingback` (pingbacks and trackbacks are never comments here),
   * `comments_disabled` (the collection does not accept comments; see `review.warnings`).
   */
  comments: { count: number; skipped: Record<string, number> };
}

/**
 * Something in the file the import changes or leaves out, reported before it
 * runs. `text_replaced`: characters no database stores (U+0000, unpaired
 * surrogates) were replaced by U+FFFD — `count` of them, `first` where.
 */
export interface AnalysisWarning {
  code: 'text_replaced';
  count: number;
  message: string;
  first: WxrPlace;
}

export interface CustomFieldSuggestion {
  key: string;
  count: number;
  postTypes: string[];
  field: { slug: string; label: string; type: FieldType };
}

export interface Analysis {
  site: WxrSite;
  /** Items in the file (every post type). */
  items: number;
  postTypes: PostTypeAnalysis[];
  excluded: Array<{ name: string; count: number; reason: string }>;
  attachments: { count: number; byExtension: Record<string, number> };
  authors: Array<{ login: string; displayName: string; email: string; posts: number }>;
  taxonomies: Array<{ source: string; taxonomy: string; terms: number; hierarchical: boolean }>;
  customFields: CustomFieldSuggestion[];
  comments: { count: number; byStatus: Record<string, number> };
  menus: Array<{ name: string; label: string; items: number }>;
  reusableBlocks: number;
  warnings: AnalysisWarning[];
}

/** The analysis warning for the reader's repairs (also the execute result's). */
export function repairWarning(r: WxrRepairs): AnalysisWarning {
  const where = `<${r.first.element}> of <${r.first.record}> number ${r.first.recordNumber}${r.first.sourceId ? ` (${r.first.sourceId})` : ''}`;
  return {
    code: 'text_replaced',
    count: r.replaced,
    first: r.first,
    message: `${r.replaced} character${r.replaced === 1 ? '' : 's'} no database stores (U+0000, unpaired surrogates) replaced by U+FFFD; the first in ${where}`,
  };
}

/** At most this many distinct custom-field keys are tracked: an export with more keeps memory bounded. */
const MAX_META_KEYS = 500;

const bump = (m: Record<string, number>, k: string, by = 1) => {
  m[k] = (m[k] ?? 0) + by;
};

function commentStatus(approved: string): string {
  if (approved === '1') return 'approved';
  if (approved === 'spam') return 'spam';
  if (approved === 'trash' || approved === 'post-trashed') return 'trash';
  return 'pending';
}

interface MetaStats {
  count: number;
  types: Set<string>;
  int: boolean;
  num: boolean;
  bool: boolean;
  long: boolean;
}

export class Analyzer {
  private site: WxrSite = { title: '', url: '', description: '', language: '', baseSiteUrl: '', wxrVersion: '' };
  private items = 0;
  private readonly types = new Map<
    string,
    {
      count: number;
      byStatus: Record<string, number>;
      excerpt: boolean;
      thumb: boolean;
      comments: number;
      pingbacks: number;
    }
  >();
  private readonly authors = new Map<string, { login: string; displayName: string; email: string; posts: number }>();
  /** Distinct terms by WordPress taxonomy (sourceTermKey): what execute creates. */
  private readonly terms = new Map<string, Set<string>>();
  private repairs: WxrRepairs | null = null;
  private readonly meta = new Map<string, MetaStats>();
  private readonly menus = new Map<string, { label: string; items: number }>();
  private readonly extensions: Record<string, number> = {};
  private readonly commentsByStatus: Record<string, number> = {};
  private comments = 0;

  add(record: WxrRecord): void {
    if (record.kind === 'site') this.site = record.site;
    else if (record.kind === 'author') {
      const a = record.author;
      this.authors.set(a.login, { login: a.login, displayName: a.displayName || a.login, email: a.email, posts: 0 });
    } else if (record.kind === 'term') {
      this.addTerm(record.term.taxonomy, record.term.slug);
      if (record.term.taxonomy === 'nav_menu') {
        const m = this.menus.get(record.term.slug) ?? { label: record.term.name, items: 0 };
        m.label = record.term.name || record.term.slug;
        this.menus.set(record.term.slug, m);
      }
    } else if (record.kind === 'repairs') this.repairs = record.repairs;
    else this.addItem(record.item);
  }

  private addTerm(taxonomy: string, slug: string): void {
    if (!taxonomy || !slug) return;
    let set = this.terms.get(taxonomy);
    if (!set) {
      set = new Set();
      this.terms.set(taxonomy, set);
    }
    set.add(sourceTermKey(taxonomy, slug));
  }

  private addItem(item: WxrItem): void {
    this.items++;
    const type = item.postType || 'post';
    if (type === 'attachment') {
      const ext = /\.([a-z0-9]{1,8})(?:[?#]|$)/i.exec(item.attachmentUrl)?.[1]?.toLowerCase() ?? 'unknown';
      bump(this.extensions, ext);
    }
    if (type === 'nav_menu_item') {
      for (const t of item.terms.filter((x) => x.domain === 'nav_menu')) {
        const m = this.menus.get(t.slug) ?? { label: t.name || t.slug, items: 0 };
        m.items++;
        this.menus.set(t.slug, m);
      }
    }
    let t = this.types.get(type);
    if (!t) {
      t = { count: 0, byStatus: {}, excerpt: false, thumb: false, comments: 0, pingbacks: 0 };
      this.types.set(type, t);
    }
    t.count++;
    bump(t.byStatus, item.status || 'draft');
    if (isInternalType(type)) return;
    if (item.excerpt.trim()) t.excerpt = true;
    const author = this.authors.get(item.creator);
    if (author) author.posts++;
    else if (item.creator)
      this.authors.set(item.creator, { login: item.creator, displayName: item.creator, email: '', posts: 1 });
    for (const c of item.comments) {
      this.comments++;
      bump(this.commentsByStatus, commentStatus(c.approved));
      if (isPingback(c.type)) t.pingbacks++;
      else t.comments++;
    }
    // A term a content item names is created by execute when the channel did not declare it.
    for (const term of item.terms) this.addTerm(term.domain, term.slug);
    for (const m of item.meta) {
      if (m.key === '_thumbnail_id') t.thumb = true;
      if (m.key.startsWith('_') || !metaFieldSlug(m.key)) continue;
      this.addMeta(m.key, m.value, type);
    }
  }

  private addMeta(key: string, value: string, type: string): void {
    let s = this.meta.get(key);
    if (!s) {
      if (this.meta.size >= MAX_META_KEYS) return;
      s = { count: 0, types: new Set(), int: true, num: true, bool: true, long: false };
      this.meta.set(key, s);
    }
    s.count++;
    s.types.add(type);
    const v = value.trim();
    if (!/^-?\d{1,15}$/.test(v)) s.int = false;
    if (!/^-?\d+(\.\d+)?$/.test(v)) s.num = false;
    if (v !== 'true' && v !== 'false') s.bool = false;
    if (v.length > 200 || v.includes('\n')) s.long = true;
  }

  result(snap: SchemaSnapshot): Analysis {
    const postTypes: PostTypeAnalysis[] = [];
    const excluded: Analysis['excluded'] = [];
    for (const [name, t] of this.types) {
      if (isInternalType(name)) {
        excluded.push({ name, count: t.count, reason: INTERNAL_POST_TYPES[name] });
        continue;
      }
      const collection = defaultCollection(name);
      const fields = suggestedFields({ excerpt: t.excerpt, featuredImage: t.thumb });
      const rv = review(snap, collection, fields, { comments: t.comments });
      const skipped: Record<string, number> = {};
      if (t.pingbacks) skipped.pingback = t.pingbacks;
      for (const w of rv.warnings) if (w.code === 'comments_disabled') skipped.comments_disabled = w.count;
      postTypes.push({
        name,
        count: t.count,
        byStatus: t.byStatus,
        collection,
        fields,
        review: rv,
        comments: { count: t.comments + t.pingbacks, skipped },
      });
    }
    const taxonomies = [...this.terms]
      .filter(([name]) => !INTERNAL_TAXONOMIES.has(name))
      .map(([source, terms]) => ({
        source,
        taxonomy: taxonomyName(source),
        terms: terms.size,
        hierarchical: source === 'category',
      }));
    const customFields: CustomFieldSuggestion[] = [...this.meta].map(([key, s]) => ({
      key,
      count: s.count,
      postTypes: [...s.types],
      field: {
        slug: metaFieldSlug(key) as string,
        label: key,
        type: s.int ? 'integer' : s.num ? 'number' : s.bool ? 'boolean' : s.long ? 'text' : 'string',
      },
    }));
    return {
      site: this.site,
      items: this.items,
      postTypes,
      excluded,
      attachments: { count: this.types.get('attachment')?.count ?? 0, byExtension: this.extensions },
      authors: [...this.authors.values()],
      taxonomies,
      customFields,
      comments: { count: this.comments, byStatus: this.commentsByStatus },
      menus: [...this.menus].map(([name, m]) => ({ name, label: m.label, items: m.items })),
      reusableBlocks: this.types.get('wp_block')?.count ?? 0,
      warnings: this.repairs ? [repairWarning(this.repairs)] : [],
    };
  }
}

export async function analyzeWxr(records: AsyncIterable<WxrRecord>, snap: SchemaSnapshot): Promise<Analysis> {
  const a = new Analyzer();
  for await (const r of records) a.add(r);
  return a.result(snap);
}

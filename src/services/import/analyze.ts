import type { FieldType } from '../fields/types.js';
import type { SchemaSnapshot } from '../schema/model.js';
import {
  defaultCollection,
  INTERNAL_POST_TYPES,
  INTERNAL_TAXONOMIES,
  isInternalType,
  metaFieldSlug,
  type Review,
  review,
  type SuggestedField,
  suggestedFields,
  taxonomyName,
} from './post-types.js';
import type { WxrItem, WxrRecord, WxrSite } from './wxr/model.js';

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
    { count: number; byStatus: Record<string, number>; excerpt: boolean; thumb: boolean }
  >();
  private readonly authors = new Map<string, { login: string; displayName: string; email: string; posts: number }>();
  private readonly termCounts: Record<string, number> = {};
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
      bump(this.termCounts, record.term.taxonomy);
      if (record.term.taxonomy === 'nav_menu') {
        const m = this.menus.get(record.term.slug) ?? { label: record.term.name, items: 0 };
        m.label = record.term.name || record.term.slug;
        this.menus.set(record.term.slug, m);
      }
    } else this.addItem(record.item);
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
      t = { count: 0, byStatus: {}, excerpt: false, thumb: false };
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
    }
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
      postTypes.push({
        name,
        count: t.count,
        byStatus: t.byStatus,
        collection,
        fields,
        review: review(snap, collection, fields),
      });
    }
    const taxonomies = Object.entries(this.termCounts)
      .filter(([name]) => !INTERNAL_TAXONOMIES.has(name))
      .map(([source, terms]) => ({
        source,
        taxonomy: taxonomyName(source),
        terms,
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
    };
  }
}

export async function analyzeWxr(records: AsyncIterable<WxrRecord>, snap: SchemaSnapshot): Promise<Analysis> {
  const a = new Analyzer();
  for await (const r of records) a.add(r);
  return a.result(snap);
}

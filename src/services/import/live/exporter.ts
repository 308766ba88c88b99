import { toStorableText } from '../../../core/text.js';
import type { ServiceContext } from '../../context.js';
import type { WxrAuthor, WxrComment, WxrItem, WxrPlace, WxrRepairs, WxrTerm } from '../wxr/model.js';
import { fetchJson, siteRoot } from './fetch-json.js';
import { EXPORTER_NAMESPACE } from './probe.js';

/**
 * Client of the exporter plugin's API (`/wp-json/cms/v1/export/…`, GET with
 * `Authorization: Basic <token>`). The plugin answers with the same records a
 * WXR file holds, as JSON, a page at a time; anything missing or of the wrong
 * type is read as empty, so a sloppy answer cannot break the import. Text
 * leaves the client storable, as from an export file (wxr/read.ts): U+0000 and
 * unpaired surrogates become U+FFFD, counted in `repairs`.
 */

export interface ExporterSummary {
  site: { title: string; url: string; description: string; language: string };
  authors: WxrAuthor[];
  terms: WxrTerm[];
  postTypes: Array<{
    name: string;
    count: number;
    byStatus: Record<string, number>;
    excerpt: boolean;
    featuredImage: boolean;
  }>;
  comments: number;
  menus: Array<{ slug: string; name: string }>;
  /** Characters the client replaced so far (this summary and any page read before it), or null. */
  repairs: WxrRepairs | null;
}

export interface ExporterItem extends WxrItem {
  locale: string;
  /** Source ID of the item this one translates. */
  translationOf: string;
}

export type ExporterComment = WxrComment & { postId: string };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const raw = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Counts the characters replaced by toStorableText, with the first place (the analysis warning's). */
export class TextRepairs {
  private replaced = 0;
  private first: WxrPlace | null = null;
  private readonly counts = new Map<string, number>();

  /** A new record of `name` starts (for "item number 3"). */
  record(name: string): Text {
    const n = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, n);
    return (v, element) => {
      const { text, replaced } = toStorableText(raw(v));
      if (replaced) {
        this.replaced += replaced;
        this.first ??= { record: name, recordNumber: n, element };
      }
      return text;
    };
  }

  result(): WxrRepairs | null {
    return this.first ? { replaced: this.replaced, first: this.first } : null;
  }
}

/** A record's text reader: a value to storable text, `element` naming the field for the report. */
type Text = (v: unknown, element: string) => string;

function strings<K extends string>(o: Obj, keys: readonly K[], str: Text): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, str(o[k], k)])) as Record<K, string>;
}

const ITEM_KEYS = [
  'title',
  'link',
  'pubDate',
  'creator',
  'guid',
  'content',
  'excerpt',
  'postId',
  'postDate',
  'postDateGmt',
  'commentStatus',
  'postName',
  'status',
  'postParent',
  'menuOrder',
  'postType',
  'postPassword',
  'isSticky',
  'attachmentUrl',
] as const;

const COMMENT_KEYS = [
  'id',
  'author',
  'authorEmail',
  'authorUrl',
  'date',
  'dateGmt',
  'content',
  'approved',
  'type',
  'parent',
  'userId',
] as const;

export function toItem(value: unknown, repairs = new TextRepairs()): ExporterItem {
  const o = obj(value);
  const str = repairs.record('item');
  return {
    ...strings(o, ITEM_KEYS, str),
    terms: arr(o.terms).map((t) => strings(obj(t), ['domain', 'slug', 'name'] as const, str)),
    meta: arr(o.meta).map((m) => strings(obj(m), ['key', 'value'] as const, str)),
    comments: [],
    locale: str(o.locale, 'locale'),
    translationOf: str(o.translationOf, 'translationOf'),
  };
}

export function toComment(value: unknown, repairs = new TextRepairs()): ExporterComment {
  const o = obj(value);
  const str = repairs.record('comment');
  return { ...strings(o, COMMENT_KEYS, str), postId: str(o.postId, 'postId') };
}

export class ExporterClient {
  readonly root: string;
  readonly repairs = new TextRepairs();

  constructor(
    private readonly ctx: ServiceContext,
    url: string,
    private readonly token: string,
  ) {
    this.root = `${siteRoot(url)}/wp-json/${EXPORTER_NAMESPACE}/export`;
  }

  private get(path: string): Promise<unknown> {
    return fetchJson(this.ctx, `${this.root}${path}`, { authorization: `Basic ${this.token}` });
  }

  async summary(): Promise<ExporterSummary> {
    const o = obj(await this.get('/summary'));
    const site = obj(o.site);
    const r = this.repairs;
    return {
      site: strings(site, ['title', 'url', 'description', 'language'] as const, r.record('site')),
      authors: arr(o.authors).map((a) =>
        strings(obj(a), ['id', 'login', 'email', 'displayName', 'firstName', 'lastName'] as const, r.record('author')),
      ),
      terms: arr(o.terms).map((t) =>
        strings(obj(t), ['id', 'taxonomy', 'slug', 'name', 'parent', 'description'] as const, r.record('term')),
      ),
      postTypes: arr(o.postTypes).map((p) => {
        const x = obj(p);
        const str = r.record('postType');
        const byStatus = Object.fromEntries(
          Object.entries(obj(x.byStatus)).map(([k, v]) => [str(k, 'byStatus'), num(v)]),
        );
        return {
          name: str(x.name, 'name'),
          count: num(x.count),
          byStatus,
          excerpt: x.excerpt === true,
          featuredImage: x.featuredImage === true,
        };
      }),
      comments: num(o.comments),
      menus: arr(o.menus).map((m) => strings(obj(m), ['slug', 'name'] as const, r.record('menu'))),
      repairs: r.result(),
    };
  }

  private page = (c: string | null, limit: number) => `?limit=${limit}${c ? `&cursor=${encodeURIComponent(c)}` : ''}`;

  async content(cursor: string | null, limit: number): Promise<{ items: ExporterItem[]; nextCursor: string | null }> {
    const o = obj(await this.get(`/content${this.page(cursor, limit)}`));
    return { items: arr(o.items).map((i) => toItem(i, this.repairs)), nextCursor: raw(o.nextCursor) || null };
  }

  async comments(
    cursor: string | null,
    limit: number,
  ): Promise<{ comments: ExporterComment[]; nextCursor: string | null }> {
    const o = obj(await this.get(`/comments${this.page(cursor, limit)}`));
    return {
      comments: arr(o.comments).map((c) => toComment(c, this.repairs)),
      nextCursor: raw(o.nextCursor) || null,
    };
  }

  async menuItems(): Promise<ExporterItem[]> {
    return arr(obj(await this.get('/menus')).items).map((i) => toItem(i, this.repairs));
  }
}

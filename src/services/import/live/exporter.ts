import type { ServiceContext } from '../../context.js';
import type { WxrAuthor, WxrComment, WxrItem, WxrTerm } from '../wxr/model.js';
import { fetchJson, siteRoot } from './fetch-json.js';
import { EXPORTER_NAMESPACE } from './probe.js';

/**
 * Client of the exporter plugin's API (`/wp-json/cms/v1/export/…`, GET with
 * `Authorization: Basic <token>`). The plugin answers with the same records a
 * WXR file holds, as JSON, a page at a time; anything missing or of the wrong
 * type is read as empty, so a sloppy answer cannot break the import.
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
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function strings<K extends string>(o: Obj, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, str(o[k])])) as Record<K, string>;
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

export function toItem(raw: unknown): ExporterItem {
  const o = obj(raw);
  return {
    ...strings(o, ITEM_KEYS),
    terms: arr(o.terms).map((t) => strings(obj(t), ['domain', 'slug', 'name'] as const)),
    meta: arr(o.meta).map((m) => strings(obj(m), ['key', 'value'] as const)),
    comments: [],
    locale: str(o.locale),
    translationOf: str(o.translationOf),
  };
}

export function toComment(raw: unknown): ExporterComment {
  const o = obj(raw);
  return { ...strings(o, COMMENT_KEYS), postId: str(o.postId) };
}

export class ExporterClient {
  readonly root: string;

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
    return {
      site: strings(site, ['title', 'url', 'description', 'language'] as const),
      authors: arr(o.authors).map((a) =>
        strings(obj(a), ['id', 'login', 'email', 'displayName', 'firstName', 'lastName'] as const),
      ),
      terms: arr(o.terms).map((t) =>
        strings(obj(t), ['id', 'taxonomy', 'slug', 'name', 'parent', 'description'] as const),
      ),
      postTypes: arr(o.postTypes).map((p) => {
        const x = obj(p);
        const byStatus = Object.fromEntries(Object.entries(obj(x.byStatus)).map(([k, v]) => [k, num(v)]));
        return {
          name: str(x.name),
          count: num(x.count),
          byStatus,
          excerpt: x.excerpt === true,
          featuredImage: x.featuredImage === true,
        };
      }),
      comments: num(o.comments),
      menus: arr(o.menus).map((m) => strings(obj(m), ['slug', 'name'] as const)),
    };
  }

  private page = (c: string | null, limit: number) => `?limit=${limit}${c ? `&cursor=${encodeURIComponent(c)}` : ''}`;

  async content(cursor: string | null, limit: number): Promise<{ items: ExporterItem[]; nextCursor: string | null }> {
    const o = obj(await this.get(`/content${this.page(cursor, limit)}`));
    return { items: arr(o.items).map(toItem), nextCursor: str(o.nextCursor) || null };
  }

  async comments(
    cursor: string | null,
    limit: number,
  ): Promise<{ comments: ExporterComment[]; nextCursor: string | null }> {
    const o = obj(await this.get(`/comments${this.page(cursor, limit)}`));
    return { comments: arr(o.comments).map(toComment), nextCursor: str(o.nextCursor) || null };
  }

  async menuItems(): Promise<ExporterItem[]> {
    return arr(obj(await this.get('/menus')).items).map(toItem);
  }
}

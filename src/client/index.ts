/**
 * The typed front-end client (`cms/client`, docs/frontends.md#typed-client): reads over the REST
 * API with `fetch` only, so it runs in Node, browsers and edge runtimes. It imports nothing of
 * the server (test/unit/client-imports.test.ts checks its import graph).
 *
 * `Schema` maps collection slugs to their entry `data` types (the `CmsSchema` that `cms types`
 * writes); without it every collection's data is a plain record.
 */

/** The API's error envelope as a thrown error: `code` is the API's stable error code. */
export class CmsClientError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;
  constructor(code: string, message: string, status: number, details?: unknown) {
    super(message);
    this.name = 'CmsClientError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export type EntryStatus = 'draft' | 'published' | 'scheduled' | 'trashed';

export interface CmsEntry<Data = Record<string, unknown>> {
  id: string;
  /** The collection's slug. */
  type: string;
  slug: string | null;
  status: EntryStatus;
  locale: string;
  translationGroup: string;
  data: Data;
  authorId: string | null;
  primaryBylineId: string | null;
  byline: CmsByline | null;
  bylines: Array<{ byline: CmsByline; roleLabel: string | null }>;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  scheduledAt: string | null;
  trashedAt: string | null;
  hasDraft: boolean;
  liveRevisionId: string | null;
  draftRevisionId: string | null;
  references?: Record<string, { items: CmsLinkedEntry[]; nextCursor?: string; next?: string }>;
}

export interface CmsByline {
  id: string;
  displayName: string;
  slug: string;
  bio: string | null;
  avatarUrl: string | null;
  websiteUrl: string | null;
  userId: string | null;
  locale: string;
  translationGroup: string;
}

export interface CmsLinkedEntry {
  id: string;
  slug: string | null;
  collection: string;
  title: string | null;
  locale: string;
  translationGroup: string;
  status: string;
}

export interface CmsPage<T> {
  items: T[];
  nextCursor?: string;
}

export interface SearchHit {
  id: string;
  collection: string;
  locale: string;
  slug: string | null;
  title: string | null;
  status: string;
  /** HTML: text escaped, matches wrapped in `<mark>`. */
  snippet: string;
  score: number;
}

export interface CmsMenuItem {
  id: string;
  label: string;
  url?: string | null;
  [key: string]: unknown;
}

export interface CmsMenu {
  id: string;
  name: string;
  label?: string;
  locale: string;
  items: CmsMenuItem[];
  [key: string]: unknown;
}

export interface CmsTerm {
  id: string;
  slug: string;
  label: string;
  locale: string;
  parentId?: string | null;
  [key: string]: unknown;
}

export interface PreviewLink {
  token: string;
  expiresAt: string;
  url: string | null;
  missing: 'siteUrl' | 'urlPattern' | 'slug' | null;
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** The site's address (the service's `publicUrl`), with or without `/_cms/api`. */
  baseUrl: string;
  /** A bearer API token (server-side only: never ship one to a browser). */
  token?: string;
  /** Another `fetch` (default: the global one). */
  fetch?: Fetch;
  /** The default locale of reads. */
  locale?: string;
  /** A preview token: single-entry reads answer that entry's pending draft. */
  preview?: string;
}

export interface GetOptions {
  locale?: string;
  /**
   * Slug reads follow the site's fallback chain (the server's rule). `false`: an entry of
   * another locale than the one asked for is NOT_FOUND.
   */
  fallback?: boolean;
  /** A preview token for this read (overrides the client's). */
  preview?: string;
}

export interface ListOptions<Data> {
  locale?: string;
  cursor?: string;
  limit?: number;
  orderBy?: 'createdAt' | 'updatedAt' | 'publishedAt' | 'slug' | (keyof Data & string);
  order?: 'asc' | 'desc';
  /** Over indexed fields: `{ views: { gte: 10 }, kind: 'news' }`. */
  filters?: Record<string, unknown>;
  status?: 'draft' | 'published' | 'scheduled';
  /** `<taxonomy>:<slug>[,<slug>…]`. */
  term?: string;
  bylineId?: string;
}

type DataOf<Schema, C> = C extends keyof Schema ? Schema[C] : Record<string, unknown>;

export interface CmsClient<Schema = Record<string, Record<string, unknown>>> {
  get<C extends keyof Schema & string>(
    collection: C,
    idOrSlug: string,
    options?: GetOptions,
  ): Promise<CmsEntry<DataOf<Schema, C>>>;
  list<C extends keyof Schema & string>(
    collection: C,
    options?: ListOptions<DataOf<Schema, C>>,
  ): Promise<CmsPage<CmsEntry<DataOf<Schema, C>>>>;
  /** Every entry, page after page along the cursors. */
  iterate<C extends keyof Schema & string>(
    collection: C,
    options?: Omit<ListOptions<DataOf<Schema, C>>, 'cursor'>,
  ): AsyncIterableIterator<CmsEntry<DataOf<Schema, C>>>;
  menus: { get(name: string, options?: { locale?: string }): Promise<CmsMenu> };
  terms: {
    list(
      taxonomy: string,
      options?: { locale?: string; parent?: string; cursor?: string; limit?: number },
    ): Promise<CmsPage<CmsTerm>>;
  };
  settings: { get(): Promise<Record<string, unknown>> };
  search(
    q: string,
    options?: { collection?: string; locale?: string; limit?: number; cursor?: string },
  ): Promise<CmsPage<SearchHit>>;
  /** A preview link for an entry: needs a token of a caller who may read drafts. */
  previewUrl(collection: keyof Schema & string, id: string): Promise<PreviewLink>;
  /** A copy of this client reading with a preview token. */
  withPreview(token: string): CmsClient<Schema>;
  /**
   * The URL of a responsive image of a library image (docs/media.md#responsive-images): a
   * configured width or a named preset, with a format and quality. Unsigned: sizes beyond the
   * configured widths and presets need the server's signing key, which never belongs in a client.
   */
  imageUrl(image: ImageRef, params: ImageUrlParams): string;
  /** The API root this client calls. */
  readonly apiRoot: string;
}

/** A library image: an image field value (with its `srcsetCandidates`) or a media item's ID. */
export type ImageRef = string | { id: string; srcsetCandidates?: ReadonlyArray<{ width: number; url: string }> | null };

export interface ImageUrlParams {
  /** A named preset of the site's `imagePresets`. */
  preset?: string;
  /** A width of the site's `imageWidths`. */
  w?: number;
  fm?: 'webp' | 'avif' | 'jpeg' | 'png' | 'auto';
  /** 1 to 100. */
  q?: number;
}

/**
 * The image URL in the server's canonical parameter order (preset, w, fm, q, then v). The
 * version `v` of a width-only URL is the one its srcset candidates carry, which makes the URL
 * cacheable for a year; without candidates the server answers it with a short cache lifetime.
 */
export function imageUrlOf(apiRoot: string, image: ImageRef, params: ImageUrlParams): string {
  const id = typeof image === 'string' ? image : image.id;
  const candidates = typeof image === 'string' ? [] : (image.srcsetCandidates ?? []);
  const q = new URLSearchParams();
  if (params.preset !== undefined) q.set('preset', params.preset);
  if (params.w !== undefined) q.set('w', String(params.w));
  if (params.fm !== undefined) q.set('fm', params.fm);
  if (params.q !== undefined) q.set('q', String(params.q));
  // A width-only derivative's version depends on the bytes alone, so any candidate's `v` is this URL's too.
  const withVersion = candidates.map((c) => new URL(c.url).searchParams.get('v')).find((v) => v);
  if (params.preset === undefined && withVersion) q.set('v', withVersion);
  const search = q.toString();
  return `${apiRoot}/media/${encodeURIComponent(id)}/image${search ? `?${search}` : ''}`;
}

const API_PATH = '/_cms/api';

/** The API root under a site's address. */
export function apiRootOf(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith(API_PATH) ? trimmed : `${trimmed}${API_PATH}`;
}

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function createClient<Schema = Record<string, Record<string, unknown>>>(
  options: ClientOptions,
): CmsClient<Schema> {
  const root = apiRootOf(options.baseUrl);
  const doFetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function request<T>(path: string, init: { method?: string; preview?: string } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (init.preview) headers['x-cms-preview'] = init.preview;
    const res = await doFetch(`${root}${path}`, { method: init.method ?? 'GET', headers });
    const text = await res.text();
    let body: { success?: boolean; data?: T; error?: { code: string; message: string; details?: unknown } } | undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!res.ok || !body || body.success === false) {
      const err = body?.error;
      throw new CmsClientError(
        err?.code ?? 'HTTP_ERROR',
        err?.message ?? `${res.status} ${res.statusText}`,
        res.status,
        err?.details,
      );
    }
    return body.data as T;
  }

  const enc = encodeURIComponent;

  const client: CmsClient<Schema> = {
    apiRoot: root,
    imageUrl: (image, params) => imageUrlOf(root, image, params),
    async get(collection, idOrSlug, opts = {}) {
      const locale = opts.locale ?? options.locale;
      const { item } = await request<{ item: CmsEntry<any> }>(
        `/content/${enc(collection)}/${enc(idOrSlug)}${query({ locale })}`,
        { preview: opts.preview ?? options.preview },
      );
      if (opts.fallback === false && locale && item.locale !== locale) {
        throw new CmsClientError('NOT_FOUND', `No ${collection} entry ${idOrSlug} in locale ${locale}`, 404, {
          locale: item.locale,
        });
      }
      return item;
    },
    async list(collection, opts = {}) {
      const data = await request<CmsPage<CmsEntry<any>>>(
        `/content/${enc(collection)}${query({
          locale: opts.locale ?? options.locale,
          cursor: opts.cursor,
          limit: opts.limit,
          orderBy: opts.orderBy as string | undefined,
          order: opts.order,
          fieldFilters: opts.filters ? JSON.stringify(opts.filters) : undefined,
          status: opts.status,
          term: opts.term,
          bylineId: opts.bylineId,
        })}`,
      );
      return { items: data.items, ...(data.nextCursor ? { nextCursor: data.nextCursor } : {}) };
    },
    async *iterate(collection, opts = {}) {
      let cursor: string | undefined;
      do {
        const page = await client.list(collection, { ...opts, cursor });
        yield* page.items;
        cursor = page.nextCursor;
      } while (cursor);
    },
    menus: {
      get: (name, opts = {}) =>
        request<CmsMenu>(`/menus/${enc(name)}${query({ locale: opts.locale ?? options.locale })}`),
    },
    terms: {
      list: (taxonomy, opts = {}) =>
        request<CmsPage<CmsTerm>>(
          `/taxonomies/${enc(taxonomy)}/terms${query({
            locale: opts.locale ?? options.locale,
            parent: opts.parent,
            cursor: opts.cursor,
            limit: opts.limit,
          })}`,
        ),
    },
    settings: { get: () => request<Record<string, unknown>>('/settings') },
    search: (q, opts = {}) =>
      request<CmsPage<SearchHit>>(
        `/search${query({
          q,
          collection: opts.collection,
          locale: opts.locale ?? options.locale,
          limit: opts.limit,
          cursor: opts.cursor,
        })}`,
      ),
    previewUrl: (collection, id) => request<PreviewLink>(`/content/${enc(collection)}/${enc(id)}/preview-url`),
    withPreview: (token) => createClient<Schema>({ ...options, preview: token }),
  };
  return client;
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { newId } from '../src/core/ids.js';
import { type MediaStore, mediaRoutes } from './baseline-media.js';

/**
 * The bare baseline: the least a server can do to answer the same requests with the same rows and
 * the same JSON. Hono on @hono/node-server over one database (bench/baseline-sqlite.ts or
 * bench/baseline-pg.ts), and per request the logical work the service must do at minimum: check the
 * bearer token (SHA-256 compared in constant time with the stored hashes; the service caches its
 * token lookups too), run the statements that read or write the same rows (a write stores the entry
 * and its revision in one transaction, checks `_rev` with a compare-and-set, and reads the entry back),
 * shape the rows into the same JSON and wrap it in the same `{ success, data }` envelope. No
 * validation layers, no permission model, no logging, no caches of its own.
 */
export type Row = Record<string, unknown>;

export interface NewPost {
  id: string;
  slug: string;
  group: string;
  authorId: string;
  now: string;
  title: string;
  body: string | null;
  views: number | null;
  revisionId: string;
}

/** The statements the baseline runs; each engine implements them with its own driver. */
export interface BaselineStore extends MediaStore {
  listCollections(): Promise<Row[]>;
  getCollection(slug: string): Promise<Row[]>;
  getPost(id: string): Promise<Row | undefined>;
  /** Published posts of the default locale, newest first. */
  listPosts(limit: number): Promise<Row[]>;
  /** Whether a slug is used in the default locale (the service derives a free one from the title). */
  slugTaken(slug: string): Promise<boolean>;
  /** Insert a draft and its first revision in one transaction; the row as stored. */
  createPost(post: NewPost): Promise<Row>;
  /** Change `views` (compare-and-set on `version` when given) and store a revision; `conflict` on a stale version. */
  updatePost(
    id: string,
    views: number,
    version: number | null,
    now: string,
    revisionId: string,
  ): Promise<Row | 'conflict' | undefined>;
  /** Make a draft live: a revision with the live snapshot, status, dates and version in one transaction. */
  publishPost(id: string, now: string, revisionId: string): Promise<Row | 'conflict' | undefined>;
  close(): Promise<void>;
}

/** The content item the service answers for a `posts` row (no credits, no references in the seed). */
function postItem(r: Row) {
  return {
    id: r.id,
    type: 'posts',
    slug: r.slug,
    status: r.deleted_at ? 'trashed' : r.status,
    locale: r.locale,
    translationGroup: r.translation_group,
    data: { title: r.title, body: r.body, views: r.views === null ? null : Number(r.views) },
    authorId: r.author_id,
    primaryBylineId: r.primary_byline_id,
    byline: null,
    bylines: [],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    publishedAt: r.published_at,
    scheduledAt: r.scheduled_at,
    trashedAt: r.deleted_at,
    hasDraft: r.draft_revision_id !== null,
    liveRevisionId: r.live_revision_id,
    draftRevisionId: r.draft_revision_id,
  };
}

const revOf = (r: Row) => Buffer.from(`${r.id}.${r.version}`).toString('base64url');
const single = (r: Row) => ({ item: { ...postItem(r), references: {} }, _rev: revOf(r) });

const FIELD_COLUMNS = [
  'id',
  'slug',
  'label',
  'type',
  'required',
  'is_unique',
  'searchable',
  'indexed',
  'translatable',
  'default_value',
  'validation',
  'widget',
  'options',
  'sort_order',
  'created_at',
  'updated_at',
];

export const FIELD_SELECT = FIELD_COLUMNS.map((col) => `f.${col} as f_${col}`).join(', ');

const json = (v: unknown) => (v === null || v === undefined ? undefined : typeof v === 'string' ? JSON.parse(v) : v);

function collectionBase(r: Row) {
  return {
    id: r.id,
    slug: r.slug,
    label: r.label,
    labelSingular: r.label_singular,
    description: r.description,
    icon: r.icon,
    supports: json(r.supports),
    // Stored as text: a pattern, or a JSON object of patterns per locale.
    urlPattern: !r.url_pattern ? null : String(r.url_pattern).startsWith('{') ? json(r.url_pattern) : r.url_pattern,
    sortOrder: Number(r.sort_order),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** `r` holds the field columns prefixed with `f_`. */
function field(r: Row) {
  const view: Row = {
    id: r.f_id,
    slug: r.f_slug,
    label: r.f_label,
    type: r.f_type,
    required: Boolean(r.f_required),
    unique: Boolean(r.f_is_unique),
    searchable: Boolean(r.f_searchable),
    indexed: Boolean(r.f_indexed),
    translatable: Boolean(r.f_translatable),
    sortOrder: Number(r.f_sort_order),
    createdAt: r.f_created_at,
    updatedAt: r.f_updated_at,
  };
  for (const [key, column] of [
    ['defaultValue', 'f_default_value'],
    ['validation', 'f_validation'],
    ['options', 'f_options'],
  ]) {
    const value = json(r[column]);
    if (value !== undefined) view[key] = value;
  }
  if (r.f_widget !== null) view.widget = r.f_widget;
  return view;
}

/** A slug from a title, as the service derives one (lower case, words joined by hyphens). */
function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
}

const notFound = { success: false, error: { code: 'NOT_FOUND', message: 'Not found' } };
const conflict = { success: false, error: { code: 'REV_CONFLICT', message: 'Stale _rev' } };

export interface BaselineServer {
  url: string;
  close(): Promise<void>;
}

export async function serveBaseline(store: BaselineStore, tokens: string[], authorId: string): Promise<BaselineServer> {
  const accepted = tokens.map((t) => createHash('sha256').update(t).digest());
  const app = new Hono();
  app.use('/_cms/api/*', async (c, next) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    const given = m ? createHash('sha256').update(m[1]).digest() : null;
    if (!given || !accepted.some((hash) => timingSafeEqual(given, hash))) {
      return c.json({ success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid token' } }, 401);
    }
    await next();
  });
  app.get('/_cms/api/schema/collections', async (c) => {
    const rows = await store.listCollections();
    const items = rows.map((r) => ({ ...collectionBase(r), fieldCount: Number(r.field_count) }));
    return c.json({ success: true, data: { items } });
  });
  app.get('/_cms/api/schema/collections/:slug', async (c) => {
    const rows = await store.getCollection(c.req.param('slug'));
    if (!rows.length) return c.json(notFound, 404);
    const fields = rows.filter((r) => r.f_id !== null).map(field);
    return c.json({ success: true, data: { ...collectionBase(rows[0]), fields } });
  });
  app.get('/_cms/api/content/posts', async (c) => {
    const limit = Number(c.req.query('limit') ?? 50);
    const rows = await store.listPosts(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const data: Row = { items: page.map(postItem) };
    if (rows.length > limit) {
      data.nextCursor = Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url');
    }
    return c.json({ success: true, data });
  });
  app.get('/_cms/api/content/posts/:id', async (c) => {
    const row = await store.getPost(c.req.param('id'));
    return row ? c.json({ success: true, data: single(row) }) : c.json(notFound, 404);
  });
  app.post('/_cms/api/content/posts', async (c) => {
    const body = (await c.req.json()) as { data: { title: string; body?: string; views?: number } };
    const root = slugify(body.data.title) || 'entry';
    const id = newId();
    const slug = (await store.slugTaken(root)) ? `${root}-${id.toLowerCase()}` : root;
    const row = await store.createPost({
      id,
      slug,
      group: newId(),
      authorId,
      now: new Date().toISOString(),
      title: body.data.title,
      body: body.data.body ?? null,
      views: body.data.views ?? null,
      revisionId: newId(),
    });
    return c.json({ success: true, data: single(row) }, 201);
  });
  app.put('/_cms/api/content/posts/:id', async (c) => {
    const body = (await c.req.json()) as { data: { views: number }; _rev?: string };
    const version = body._rev ? Number(Buffer.from(body._rev, 'base64url').toString().split('.')[1]) : null;
    const row = await store.updatePost(c.req.param('id'), body.data.views, version, new Date().toISOString(), newId());
    if (row === 'conflict') return c.json(conflict, 409);
    return row ? c.json({ success: true, data: single(row) }) : c.json(notFound, 404);
  });
  app.post('/_cms/api/content/posts/:id/publish', async (c) => {
    const row = await store.publishPost(c.req.param('id'), new Date().toISOString(), newId());
    if (row === 'conflict') return c.json(conflict, 409);
    return row ? c.json({ success: true, data: single(row) }) : c.json(notFound, 404);
  });

  const media = mediaRoutes(app, store, authorId);

  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((done) => {
        server.close(() => done());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await store.close();
      media.close();
    },
  };
}

/** The tables the baseline copies from the service (with their indexes) before any load. */
export const MIRRORED_TABLES = [
  '_cms_collections',
  '_cms_fields',
  'ec_posts',
  '_cms_revisions',
  // The media rows, and the tables their foreign keys point at.
  '_cms_users',
  '_cms_media_folders',
  '_cms_media',
];

/** The revision snapshot the service stores for a `posts` entry. */
export const snapshot = (r: { title?: unknown; body?: unknown; views?: unknown }) =>
  JSON.stringify({ title: r.title, body: r.body, views: r.views === null ? null : Number(r.views) });

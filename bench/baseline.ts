import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import SqliteDatabase from 'better-sqlite3';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { newId } from '../src/core/ids.js';
import type { Kdb } from '../src/db/connect.js';

/**
 * The bare baseline: the least a server can do to answer the same requests. Hono on
 * @hono/node-server, its own better-sqlite3 file (WAL), the same rows as the service, and per
 * request what the service must do at minimum: check the bearer token (SHA-256 and a constant-time
 * compare against the stored hash), run one prepared query, shape the rows into the same JSON and
 * wrap it in the same `{ success, data }` envelope. No validation layers, no logging, no caches.
 *
 * A new scenario needs its route here (same method, path and response) and, when it reads new
 * tables, their DDL below and a `mirror([...])` call in its setup.
 */
const DDL = `
  create table _cms_collections (
    id text primary key, slug text not null unique, label text not null, label_singular text not null,
    description text, icon text, supports text not null, sort_order integer not null, source text not null,
    created_at text not null, updated_at text not null
  );
  create table _cms_fields (
    id text primary key, collection_id text not null, slug text not null,
    label text not null, type text not null, column_name text, retired_column text, required integer not null,
    is_unique integer not null, searchable integer not null, indexed integer not null, translatable integer not null,
    default_value text, validation text, widget text, options text, sort_order integer not null,
    created_at text not null, updated_at text not null, unique (collection_id, slug)
  );
  create table ec_posts (
    id text primary key, slug text, status text not null, locale text not null, translation_group text not null,
    author_id text, primary_byline_id text, created_at text not null, updated_at text not null, published_at text,
    scheduled_at text, deleted_at text, version integer not null, live_revision_id text, draft_revision_id text,
    title text, body text, views integer
  );
  create unique index ec_posts_locale_slug on ec_posts (locale, slug);
  create index ec_posts_by_created on ec_posts (locale, created_at, id);
  create index ec_posts_by_status on ec_posts (locale, status, created_at, id);
`;

/** The content item the service answers for a `posts` row (no credits, no references in the seed). */
function postItem(r: Row) {
  return {
    id: r.id,
    type: 'posts',
    slug: r.slug,
    status: r.deleted_at ? 'trashed' : r.status,
    locale: r.locale,
    translationGroup: r.translation_group,
    data: { title: r.title, body: r.body, views: r.views },
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

const single = (r: Row) => ({
  item: { ...postItem(r), references: {} },
  _rev: Buffer.from(`${r.id}.${r.version}`).toString('base64url'),
});

type Row = Record<string, unknown>;

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

const json = (v: unknown) => (v === null || v === undefined ? undefined : JSON.parse(v as string));

function collectionBase(r: Row) {
  return {
    id: r.id,
    slug: r.slug,
    label: r.label,
    labelSingular: r.label_singular,
    description: r.description,
    icon: r.icon,
    supports: JSON.parse(r.supports as string),
    sortOrder: r.sort_order,
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
    sortOrder: r.f_sort_order,
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

export interface Baseline {
  url: string;
  /** Replace the rows of these tables with the service's current rows. */
  mirror(from: Kdb, tables: string[]): Promise<void>;
  close(): Promise<void>;
}

export async function startBaseline(file: string, tokens: string[]): Promise<Baseline> {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(DDL);

  const listCollections = db.prepare(`
    select c.*, count(f.id) as field_count
    from _cms_collections c left join _cms_fields f on f.collection_id = c.id
    group by c.id order by c.sort_order, c.slug`);
  const getCollection = db.prepare(`
    select c.*, ${FIELD_COLUMNS.map((col) => `f.${col} as f_${col}`).join(', ')}
    from _cms_collections c left join _cms_fields f on f.collection_id = c.id
    where c.slug = ? order by f.sort_order, f.created_at`);

  const getPost = db.prepare('select * from ec_posts where id = ?');
  const listPosts = db.prepare(
    `select * from ec_posts where locale = 'en' and status = 'published' and deleted_at is null order by created_at desc, id desc limit ?`,
  );
  const insertPost =
    db.prepare(`insert into ec_posts (id, slug, status, locale, translation_group, author_id, created_at,
    updated_at, version, title, body, views) values (@id, @slug, 'draft', 'en', @group, null, @now, @now, 1, @title, @body, @views)`);
  const updateViews = db.prepare('update ec_posts set views = ?, updated_at = ?, version = version + 1 where id = ?');

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
  app.get('/_cms/api/schema/collections', (c) => {
    const rows = listCollections.all() as Row[];
    const items = rows.map((r) => ({ ...collectionBase(r), fieldCount: r.field_count }));
    return c.json({ success: true, data: { items } });
  });
  app.get('/_cms/api/schema/collections/:slug', (c) => {
    const rows = getCollection.all(c.req.param('slug')) as Row[];
    if (!rows.length) return c.json({ success: false, error: { code: 'NOT_FOUND', message: 'Not found' } }, 404);
    const fields = rows.filter((r) => r.f_id !== null).map(field);
    return c.json({ success: true, data: { ...collectionBase(rows[0]), fields } });
  });

  app.get('/_cms/api/content/posts', (c) => {
    const limit = Number(c.req.query('limit') ?? 50);
    const rows = listPosts.all(limit + 1) as Row[];
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const data: Row = { items: page.map(postItem) };
    if (rows.length > limit)
      data.nextCursor = Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url');
    return c.json({ success: true, data });
  });
  app.get('/_cms/api/content/posts/:id', (c) => {
    const row = getPost.get(c.req.param('id')) as Row | undefined;
    if (!row) return c.json({ success: false, error: { code: 'NOT_FOUND', message: 'Not found' } }, 404);
    return c.json({ success: true, data: single(row) });
  });
  app.post('/_cms/api/content/posts', async (c) => {
    const body = (await c.req.json()) as { data: { title: string; body?: string; views?: number } };
    const id = newId();
    insertPost.run({
      id,
      slug: id.toLowerCase(),
      group: newId(),
      now: new Date().toISOString(),
      ...{ body: null, views: null },
      ...body.data,
    });
    return c.json({ success: true, data: single(getPost.get(id) as Row) }, 201);
  });
  app.put('/_cms/api/content/posts/:id', async (c) => {
    const body = (await c.req.json()) as { data: { views: number } };
    updateViews.run(body.data.views, new Date().toISOString(), c.req.param('id'));
    const row = getPost.get(c.req.param('id')) as Row | undefined;
    if (!row) return c.json({ success: false, error: { code: 'NOT_FOUND', message: 'Not found' } }, 404);
    return c.json({ success: true, data: single(row) });
  });

  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    async mirror(from, tables) {
      for (const table of tables) {
        const columns = (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name);
        if (!columns.length) throw new Error(`baseline: no table ${table} (add its DDL to bench/baseline.ts)`);
        const { rows } = await sql<Row>`select * from ${sql.table(table)}`.execute(from);
        const insert = db.prepare(
          `insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
        );
        db.transaction(() => {
          db.prepare(`delete from ${table}`).run();
          for (const row of rows) insert.run(Object.fromEntries(columns.map((c) => [c, row[c] ?? null])));
        })();
      }
    },
    async close() {
      await new Promise<void>((done) => {
        server.close(() => done());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      db.close();
    },
  };
}

import SqliteDatabase from 'better-sqlite3';
import { type BaselineStore, FIELD_SELECT, MIRRORED_TABLES, type Row, snapshot } from './baseline-app.js';
import { MEDIA_COLUMNS } from './baseline-media.js';

/**
 * The baseline's store on its own better-sqlite3 file (WAL, synchronous NORMAL, as the service),
 * created from the service's database: the same table definitions and indexes, the same rows.
 */
export function sqliteStore(file: string, serviceFile: string): BaselineStore {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.prepare('attach database ? as svc').run(serviceFile);
  db.transaction(() => {
    for (const table of MIRRORED_TABLES) {
      const ddl = db
        .prepare(
          `select type, sql from svc.sqlite_master where tbl_name = ? and sql is not null order by type = 'index'`,
        )
        .all(table) as Array<{ sql: string }>;
      if (!ddl.length) throw new Error(`baseline: the service has no table ${table}`);
      for (const { sql } of ddl) db.exec(sql);
      db.exec(`insert into main."${table}" select * from svc."${table}"`);
    }
  })();
  db.exec('detach database svc');

  const listCollections = db.prepare(`
    select c.*, count(f.id) as field_count
    from _cms_collections c left join _cms_fields f on f.collection_id = c.id
    group by c.id order by c.sort_order, c.slug`);
  const getCollection = db.prepare(`
    select c.*, ${FIELD_SELECT}
    from _cms_collections c left join _cms_fields f on f.collection_id = c.id
    where c.slug = ? order by f.sort_order, f.created_at`);
  const postsId = (db.prepare(`select id from _cms_collections where slug = 'posts'`).get() as Row).id;
  const getPost = db.prepare('select * from ec_posts where id = ?');
  const listPosts = db.prepare(
    `select * from ec_posts where locale = 'en' and status = 'published' and deleted_at is null
     order by created_at desc, id desc limit ?`,
  );
  const slugTaken = db.prepare(`select 1 from ec_posts where locale = 'en' and slug = ?`);
  const insertPost = db.prepare(`insert into ec_posts (id, slug, status, locale, translation_group, author_id,
    created_at, updated_at, version, title, body, views) values (@id, @slug, 'draft', 'en', @group, @authorId,
    @now, @now, 1, @title, @body, @views)`);
  const insertRevision = db.prepare(`insert into _cms_revisions (id, collection_id, entry_id, slug, data, kind,
    created_by, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)`);
  const updateViews = db.prepare(
    'update ec_posts set views = ?, updated_at = ?, version = version + 1 where id = ? and version = ?',
  );
  const publish = db.prepare(`update ec_posts set status = 'published', published_at = coalesce(published_at, @now),
    scheduled_at = null, draft_revision_id = null, live_revision_id = @rev, updated_at = @now, version = version + 1
    where id = @id and version = @version`);

  const create = db.transaction((p: Parameters<BaselineStore['createPost']>[0]) => {
    insertPost.run(p);
    insertRevision.run(p.revisionId, postsId, p.id, p.slug, snapshot(p), 'save', p.authorId, p.now);
  });
  const update = db.transaction((id: string, views: number, version: number | null, now: string, rev: string) => {
    const row = getPost.get(id) as Row | undefined;
    if (!row) return undefined;
    if (version !== null && version !== row.version) return 'conflict' as const;
    insertRevision.run(rev, postsId, id, row.slug, snapshot({ ...row, views }), 'save', row.author_id, now);
    updateViews.run(views, now, id, row.version);
    return getPost.get(id) as Row;
  });
  const publishTx = db.transaction((id: string, now: string, rev: string) => {
    const row = getPost.get(id) as Row | undefined;
    if (!row) return undefined;
    if (row.status === 'published') return 'conflict' as const;
    insertRevision.run(rev, postsId, id, row.slug, snapshot(row), 'publish', row.author_id, now);
    publish.run({ id, now, rev, version: row.version });
    return getPost.get(id) as Row;
  });

  const listMedia = db.prepare(
    `select * from _cms_media where status = 'ready' order by created_at desc, id desc limit ?`,
  );
  const insertMedia = db.prepare(
    `insert into _cms_media (${MEDIA_COLUMNS.join(', ')}) values (${MEDIA_COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  const getMedia = db.prepare('select * from _cms_media where id = ?');

  return {
    listMedia: async (limit) => listMedia.all(limit) as Row[],
    async insertMedia(row) {
      insertMedia.run(row);
      return getMedia.get(row.id) as Row;
    },
    listCollections: async () => listCollections.all() as Row[],
    getCollection: async (slug) => getCollection.all(slug) as Row[],
    getPost: async (id) => getPost.get(id) as Row | undefined,
    listPosts: async (limit) => listPosts.all(limit) as Row[],
    slugTaken: async (slug) => slugTaken.get(slug) !== undefined,
    async createPost(p) {
      create(p);
      return getPost.get(p.id) as Row;
    },
    updatePost: async (id, views, version, now, rev) => update(id, views, version, now, rev),
    publishPost: async (id, now, rev) => publishTx(id, now, rev),
    close: async () => {
      db.close();
    },
  };
}

import pg from 'pg';
import { type BaselineStore, FIELD_SELECT, MIRRORED_TABLES, type Row, snapshot } from './baseline-app.js';
import { MEDIA_COLUMNS } from './baseline-media.js';

// Counts and bigint columns as numbers, as the service reads them.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * The baseline's store on the same PostgreSQL server as the service, in a schema of its own holding
 * copies of the service's tables (`create table … (like … including all)`: same columns and indexes)
 * and rows. A pool of the service's size; writes run in one transaction on one connection.
 */
export async function pgStore(url: string, schema: string, serviceSchema: string): Promise<BaselineStore> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
    for (const table of MIRRORED_TABLES) {
      await admin.query(`create table ${schema}."${table}" (like ${serviceSchema}."${table}" including all)`);
      await admin.query(`insert into ${schema}."${table}" select * from ${serviceSchema}."${table}"`);
    }
    await admin.query(`analyze`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
  const all = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows as Row[];
  const postsId = (await all(`select id from _cms_collections where slug = 'posts'`))[0].id;
  const getPost = async (db: pg.Pool | pg.PoolClient, id: string) =>
    (await db.query('select * from ec_posts where id = $1', [id])).rows[0] as Row | undefined;
  const insertRevision = (db: pg.PoolClient, values: unknown[]) =>
    db.query(
      `insert into _cms_revisions (id, collection_id, entry_id, slug, data, kind, created_by, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      values,
    );
  async function tx<T>(fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const db = await pool.connect();
    try {
      await db.query('begin');
      const out = await fn(db);
      await db.query('commit');
      return out;
    } catch (err) {
      await db.query('rollback');
      throw err;
    } finally {
      db.release();
    }
  }

  return {
    listMedia: (limit) =>
      all(`select * from _cms_media where status = 'ready' order by created_at desc, id desc limit $1`, [limit]),
    async insertMedia(row) {
      const values = MEDIA_COLUMNS.map((c) => row[c]);
      const placeholders = MEDIA_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
      return (
        await all(`insert into _cms_media (${MEDIA_COLUMNS.join(', ')}) values (${placeholders}) returning *`, values)
      )[0];
    },
    listCollections: () =>
      all(`select c.*, count(f.id) as field_count
           from _cms_collections c left join _cms_fields f on f.collection_id = c.id
           group by c.id order by c.sort_order, c.slug`),
    getCollection: (slug) =>
      all(
        `select c.*, ${FIELD_SELECT}
         from _cms_collections c left join _cms_fields f on f.collection_id = c.id
         where c.slug = $1 order by f.sort_order, f.created_at`,
        [slug],
      ),
    getPost: (id) => getPost(pool, id),
    listPosts: (limit) =>
      all(
        `select * from ec_posts where locale = 'en' and status = 'published' and deleted_at is null
         order by created_at desc, id desc limit $1`,
        [limit],
      ),
    slugTaken: async (slug) =>
      (await all(`select 1 from ec_posts where locale = 'en' and slug = $1`, [slug])).length > 0,
    async createPost(p) {
      await tx(async (db) => {
        await db.query(
          `insert into ec_posts (id, slug, status, locale, translation_group, author_id, created_at, updated_at,
           version, title, body, views) values ($1, $2, 'draft', 'en', $3, $4, $5, $5, 1, $6, $7, $8)`,
          [p.id, p.slug, p.group, p.authorId, p.now, p.title, p.body, p.views],
        );
        await insertRevision(db, [p.revisionId, postsId, p.id, p.slug, snapshot(p), 'save', p.authorId, p.now]);
      });
      return (await getPost(pool, p.id)) as Row;
    },
    async updatePost(id, views, version, now, rev) {
      const out = await tx(async (db) => {
        const row = (await db.query('select * from ec_posts where id = $1 for update', [id])).rows[0] as
          | Row
          | undefined;
        if (!row) return undefined;
        if (version !== null && version !== Number(row.version)) return 'conflict' as const;
        await insertRevision(db, [rev, postsId, id, row.slug, snapshot({ ...row, views }), 'save', row.author_id, now]);
        await db.query(
          'update ec_posts set views = $1, updated_at = $2, version = version + 1 where id = $3 and version = $4',
          [views, now, id, row.version],
        );
        return 'done' as const;
      });
      return out === 'done' ? getPost(pool, id) : out;
    },
    async publishPost(id, now, rev) {
      const out = await tx(async (db) => {
        const row = (await db.query('select * from ec_posts where id = $1 for update', [id])).rows[0] as
          | Row
          | undefined;
        if (!row) return undefined;
        if (row.status === 'published') return 'conflict' as const;
        await insertRevision(db, [rev, postsId, id, row.slug, snapshot(row), 'publish', row.author_id, now]);
        await db.query(
          `update ec_posts set status = 'published', published_at = coalesce(published_at, $2), scheduled_at = null,
           draft_revision_id = null, live_revision_id = $3, updated_at = $2, version = version + 1
           where id = $1 and version = $4`,
          [id, now, rev, row.version],
        );
        return 'done' as const;
      });
      return out === 'done' ? getPost(pool, id) : out;
    },
    async close() {
      await pool.end();
    },
  };
}

import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * The public side: comments with moderation, redirect rules, the bounded 404
 * log, per-entry SEO (noindex …) and the collections' URL patterns that make
 * them routable for sitemaps and hreflang alternates.
 */
export const migration010: Migration = {
  name: '010_public',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    // `/blog/{slug}` or a JSON object of one pattern per locale; null: not routable.
    await db.schema.alterTable('_cms_collections').addColumn('url_pattern', 'text').execute();

    await db.schema
      .createTable('_cms_comments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('collection', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      // Threads are two levels deep: root_id is the top-level comment (itself for a root).
      .addColumn('root_id', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('author_email', 'text')
      .addColumn('author_url', 'text')
      .addColumn('user_id', 'text')
      // HTML-escaped plain text: markup is never stored as markup.
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('spam_reasons', 'text')
      .addColumn('client_key', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('moderated_at', 'text')
      .addColumn('moderated_by', 'text')
      .execute();
    await db.schema
      .createIndex('_cms_comments_entry')
      .on('_cms_comments')
      .columns(['entry_id', 'status', 'parent_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('_cms_comments_thread')
      .on('_cms_comments')
      .columns(['root_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('_cms_comments_status')
      .on('_cms_comments')
      .columns(['status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('_cms_comments_collection')
      .on('_cms_comments')
      .columns(['collection', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('_cms_comments_client')
      .on('_cms_comments')
      .columns(['client_key', 'created_at'])
      .execute();

    await db.schema
      .createTable('_cms_redirects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // Normalised source path (`/old`, `/blog/:year/:slug`, `/docs/*`); unique.
      .addColumn('source', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('status_code', int, (c) => c.notNull())
      .addColumn('enabled', int, (c) => c.notNull().defaultTo(1))
      .addColumn('note', 'text')
      .addColumn('hits', int, (c) => c.notNull().defaultTo(0))
      .addColumn('last_hit_at', 'text')
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('_cms_redirects_created').on('_cms_redirects').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('_cms_redirects_hits').on('_cms_redirects').columns(['hits', 'id']).execute();

    // One row per (path, referrer); the row count is capped (least-hit, oldest rows go first).
    await db.schema
      .createTable('_cms_not_found')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('path', 'text', (c) => c.notNull())
      // '' when the request had no (usable) referrer, so the pair can be unique on both engines.
      .addColumn('referrer', 'text', (c) => c.notNull())
      .addColumn('count', int, (c) => c.notNull())
      .addColumn('first_seen', 'text', (c) => c.notNull())
      .addColumn('last_seen', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_not_found_key')
      .on('_cms_not_found')
      .columns(['path', 'referrer'])
      .unique()
      .execute();
    await db.schema.createIndex('_cms_not_found_recent').on('_cms_not_found').columns(['last_seen', 'id']).execute();
    await db.schema
      .createIndex('_cms_not_found_evict')
      .on('_cms_not_found')
      .columns(['count', 'last_seen', 'id'])
      .execute();

    // Entry-level SEO, keyed by entry (each translation has its own).
    await db.schema
      .createTable('_cms_seo')
      .addColumn('collection', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('description', 'text')
      .addColumn('canonical', 'text')
      .addColumn('noindex', int, (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_seo_pk', ['collection', 'entry_id'])
      .execute();

    await db
      .insertInto('_cms_meta')
      .values([
        { key: 'redirects_version', value: '0' },
        { key: 'not_found_evicted', value: '0' },
      ])
      .execute();
  },
};

import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * Media usage tracking: the index of which media items each active content
 * row references (one row per entry, top-level field and item), the
 * activation state of tracking, each collection's coverage, and the work
 * items (historical indexing, collection deletion) that leases coordinate
 * between processes.
 *
 * A database that already holds collections was written without tracking:
 * it starts `expanded` (tracking off) and an operator activates it. A new
 * installation has nothing to index and starts `active`.
 */
export const migration012: Migration = {
  name: '012_usage',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    await db.schema
      .createTable('_cms_media_usage')
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      // The top-level field holding the reference (a field's deletion drops its rows at once).
      .addColumn('field_id', 'text', (c) => c.notNull())
      .addColumn('media_id', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull())
      // 1 when the reference is in the entry's live values (not only in its pending draft).
      .addColumn('live', int, (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_media_usage_pk', ['collection_id', 'entry_id', 'field_id', 'media_id'])
      .execute();
    await db.schema
      .createIndex('_cms_media_usage_media')
      .on('_cms_media_usage')
      .columns(['media_id', 'entry_id'])
      .execute();

    await db.schema
      .createTable('_cms_media_usage_state')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // expanded | activating | active
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('last_error_code', 'text')
      .addColumn('started_at', 'text')
      .addColumn('activated_at', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_media_usage_collections')
      .addColumn('collection_id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull())
      // pending | running | complete | partial | failed | stale
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('entries', int, (c) => c.notNull())
      .addColumn('referencing', int, (c) => c.notNull())
      .addColumn('references', int, (c) => c.notNull())
      .addColumn('skipped', int, (c) => c.notNull())
      .addColumn('last_error_code', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_media_usage_work')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // index (historical indexing of a collection) | collection-deletion
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('collection_slug', 'text', (c) => c.notNull())
      // pending | running | done | failed
      .addColumn('status', 'text', (c) => c.notNull())
      // Last entry ID a step finished (index work).
      .addColumn('cursor', 'text')
      .addColumn('lease_token', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('attempts', int, (c) => c.notNull())
      .addColumn('last_error_code', 'text')
      // Bumped by every change: compare-and-set for claims and retries.
      .addColumn('version', int, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_media_usage_work_status')
      .on('_cms_media_usage_work')
      .columns(['status', 'created_at', 'id'])
      .execute();

    const existing = await db.selectFrom('_cms_collections').select('id').limit(1).execute();
    const now = new Date().toISOString();
    await db
      .insertInto('_cms_media_usage_state')
      .values({
        id: 'site',
        state: existing.length ? 'expanded' : 'active',
        last_error_code: null,
        started_at: null,
        activated_at: existing.length ? null : now,
        updated_at: now,
      })
      .execute();
  },
};

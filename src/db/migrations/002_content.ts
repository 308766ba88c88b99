import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/** Revisions, edit locks, bylines and entry credits. */
export const migration002: Migration = {
  name: '002_content',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    await db.schema
      .createTable('_cms_revisions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      .addColumn('slug', 'text')
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('refs', 'text')
      .addColumn('bylines', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_revisions_entry')
      .on('_cms_revisions')
      .columns(['collection_id', 'entry_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('_cms_locks')
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('user_name', 'text')
      .addColumn('token', 'text')
      .addColumn('acquired_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_locks_pk', ['collection_id', 'entry_id'])
      .execute();

    await db.schema
      .createTable('_cms_bylines')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('bio', 'text')
      .addColumn('avatar_url', 'text')
      .addColumn('website_url', 'text')
      .addColumn('user_id', 'text', (c) => c.references('_cms_users.id').onDelete('set null'))
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('translation_group', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_bylines_user_locale')
      .on('_cms_bylines')
      .columns(['user_id', 'locale'])
      .unique()
      .where(sql.ref('user_id'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('_cms_bylines_locale_name')
      .on('_cms_bylines')
      .columns(['locale', 'display_name', 'id'])
      .execute();
    await db.schema
      .createIndex('_cms_bylines_locale_slug')
      .on('_cms_bylines')
      .columns(['locale', 'slug'])
      .unique()
      .execute();
    await db.schema
      .createIndex('_cms_bylines_group')
      .on('_cms_bylines')
      .columns(['translation_group', 'locale'])
      .unique()
      .execute();

    await db.schema
      .createTable('_cms_entry_bylines')
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      .addColumn('byline_id', 'text', (c) => c.notNull().references('_cms_bylines.id').onDelete('cascade'))
      .addColumn('position', int, (c) => c.notNull())
      .addColumn('role_label', 'text')
      .addPrimaryKeyConstraint('_cms_entry_bylines_pk', ['collection_id', 'entry_id', 'byline_id'])
      .execute();
    await db.schema
      .createIndex('_cms_entry_bylines_byline')
      .on('_cms_entry_bylines')
      .columns(['byline_id', 'collection_id', 'entry_id'])
      .execute();
  },
};

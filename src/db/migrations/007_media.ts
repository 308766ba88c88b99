import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * The media library: folders and items. An item's ID never changes (content
 * fields and, later, the usage index reference it); its bytes live in storage
 * under `storage_key`, which changes when the file is replaced. `dedupe_key`
 * holds the content hash of the one ready item that answers for those bytes,
 * so two concurrent identical uploads cannot both create an item.
 */
export const migration007: Migration = {
  name: '007_media',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    await db.schema
      .createTable('_cms_media_folders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull().unique())
      .addColumn('created_by', 'text', (c) => c.references('_cms_users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_media')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('mime_type', 'text', (c) => c.notNull())
      .addColumn('size', int, (c) => c.notNull())
      .addColumn('width', int)
      .addColumn('height', int)
      .addColumn('alt', 'text')
      .addColumn('caption', 'text')
      .addColumn('placeholder', 'text')
      .addColumn('folder_id', 'text', (c) => c.references('_cms_media_folders.id').onDelete('set null'))
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('content_hash', 'text')
      .addColumn('dedupe_key', 'text', (c) => c.unique())
      .addColumn('declared_hash', 'text')
      .addColumn('uploaded_by', 'text', (c) => c.references('_cms_users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('version', int, (c) => c.notNull().defaultTo(1))
      .execute();
    // Newest first, for the whole library and per folder (NULL folder = the Main library).
    await db.schema.createIndex('_cms_media_list').on('_cms_media').columns(['status', 'created_at', 'id']).execute();
    await db.schema
      .createIndex('_cms_media_folder_list')
      .on('_cms_media')
      .columns(['folder_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('_cms_media_storage_key').on('_cms_media').column('storage_key').execute();
    await db.schema.createIndex('_cms_media_expiry').on('_cms_media').columns(['status', 'expires_at']).execute();
  },
};

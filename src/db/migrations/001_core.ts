import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/** Users, tokens, schema registry (collections, fields, relations, links, block types). */
export const migration001: Migration = {
  name: '001_core',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    await db.schema
      .createTable('_cms_meta')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await db.insertInto('_cms_meta').values({ key: 'schema_version', value: '1' }).execute();

    await db.schema
      .createTable('_cms_users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text')
      .addColumn('role', int, (c) => c.notNull())
      .addColumn('disabled', int, (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('_cms_users_created').on('_cms_users').columns(['created_at', 'id']).execute();

    await db.schema
      .createTable('_cms_api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('_cms_users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createIndex('_cms_api_tokens_user')
      .on('_cms_api_tokens')
      .columns(['user_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('_cms_collections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('label_singular', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('icon', 'text')
      .addColumn('supports', 'text', (c) => c.notNull())
      .addColumn('sort_order', int, (c) => c.notNull().defaultTo(0))
      .addColumn('source', 'text', (c) => c.notNull().defaultTo('api'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_fields')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('collection_id', 'text', (c) => c.notNull().references('_cms_collections.id').onDelete('cascade'))
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('column_name', 'text')
      .addColumn('retired_column', 'text')
      .addColumn('required', int, (c) => c.notNull().defaultTo(0))
      .addColumn('is_unique', int, (c) => c.notNull().defaultTo(0))
      .addColumn('searchable', int, (c) => c.notNull().defaultTo(0))
      .addColumn('indexed', int, (c) => c.notNull().defaultTo(0))
      .addColumn('translatable', int, (c) => c.notNull().defaultTo(1))
      .addColumn('default_value', 'text')
      .addColumn('validation', 'text')
      .addColumn('widget', 'text')
      .addColumn('options', 'text')
      .addColumn('sort_order', int, (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('_cms_fields_collection_slug', ['collection_id', 'slug'])
      .execute();

    await db.schema
      .createTable('_cms_relations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('parent_collection_id', 'text', (c) =>
        c.notNull().references('_cms_collections.id').onDelete('cascade'),
      )
      .addColumn('child_collection_id', 'text', (c) =>
        c.notNull().references('_cms_collections.id').onDelete('cascade'),
      )
      .addColumn('parent_field_id', 'text', (c) => c.references('_cms_fields.id').onDelete('set null'))
      .addColumn('child_field_id', 'text', (c) => c.references('_cms_fields.id').onDelete('set null'))
      .addColumn('multiple', int, (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_links')
      .addColumn('relation_id', 'text', (c) => c.notNull().references('_cms_relations.id').onDelete('cascade'))
      .addColumn('parent_group', 'text', (c) => c.notNull())
      .addColumn('child_group', 'text', (c) => c.notNull())
      .addColumn('position', int, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_links_pk', ['relation_id', 'parent_group', 'child_group'])
      .execute();
    await db.schema
      .createIndex('_cms_links_parent_order')
      .on('_cms_links')
      .columns(['relation_id', 'parent_group', 'position'])
      .execute();
    await db.schema
      .createIndex('_cms_links_child')
      .on('_cms_links')
      .columns(['relation_id', 'child_group', 'parent_group'])
      .execute();

    await db.schema
      .createTable('_cms_block_types')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('icon', 'text')
      .addColumn('active_version', int, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_block_type_versions')
      .addColumn('block_type_id', 'text', (c) => c.notNull().references('_cms_block_types.id').onDelete('cascade'))
      .addColumn('version', int, (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_block_type_versions_pk', ['block_type_id', 'version'])
      .execute();
  },
};

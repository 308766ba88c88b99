import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * Site structure: taxonomies (taxonomy-wide values plus one definition per
 * locale), terms, content-term assignments keyed by translation groups with
 * maintained per-term counts, menus with items, sections, widget areas and
 * widgets. Site settings keep using `_cms_settings` (migration 003).
 */
export const migration008: Migration = {
  name: '008_structure',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    await db.schema
      .createTable('_cms_taxonomies')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('hierarchical', int, (c) => c.notNull())
      .addColumn('collections', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_taxonomy_defs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('taxonomy', 'text', (c) => c.notNull().references('_cms_taxonomies.name').onDelete('cascade'))
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('label_singular', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_taxonomy_defs_name_locale')
      .on('_cms_taxonomy_defs')
      .columns(['taxonomy', 'locale'])
      .unique()
      .execute();

    await db.schema
      .createTable('_cms_terms')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('taxonomy', 'text', (c) => c.notNull().references('_cms_taxonomies.name').onDelete('cascade'))
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('translation_group', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('parent_group', 'text')
      .addColumn('position', int, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_terms_slug')
      .on('_cms_terms')
      .columns(['taxonomy', 'locale', 'slug'])
      .unique()
      .execute();
    await db.schema
      .createIndex('_cms_terms_group_locale')
      .on('_cms_terms')
      .columns(['translation_group', 'locale'])
      .unique()
      .execute();
    // Whole-taxonomy listing of a locale in manual order, and one sibling group's listing.
    await db.schema
      .createIndex('_cms_terms_order')
      .on('_cms_terms')
      .columns(['taxonomy', 'locale', 'position', 'id'])
      .execute();
    await db.schema
      .createIndex('_cms_terms_children')
      .on('_cms_terms')
      .columns(['taxonomy', 'parent_group', 'locale', 'position', 'id'])
      .execute();

    await db.schema
      .createTable('_cms_content_terms')
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('entry_group', 'text', (c) => c.notNull())
      .addColumn('term_group', 'text', (c) => c.notNull())
      .addColumn('taxonomy', 'text', (c) => c.notNull())
      .addColumn('position', int, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_content_terms_pk', ['collection_id', 'entry_group', 'term_group'])
      .execute();
    // The content list's term filter starts from the term.
    await db.schema
      .createIndex('_cms_content_terms_term')
      .on('_cms_content_terms')
      .columns(['term_group', 'collection_id', 'entry_group'])
      .execute();
    await db.schema
      .createIndex('_cms_content_terms_taxonomy')
      .on('_cms_content_terms')
      .columns(['taxonomy', 'collection_id'])
      .execute();

    await db.schema
      .createTable('_cms_term_counted')
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      .addColumn('term_group', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_term_counted_pk', ['collection_id', 'entry_id', 'term_group'])
      .execute();
    await db.schema.createIndex('_cms_term_counted_term').on('_cms_term_counted').column('term_group').execute();

    await db.schema
      .createTable('_cms_term_counts')
      .addColumn('term_group', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('count', int, (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_term_counts_pk', ['term_group', 'locale', 'collection_id'])
      .execute();

    await db.schema
      .createTable('_cms_menus')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('translation_group', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_menus_locale_name')
      .on('_cms_menus')
      .columns(['locale', 'name'])
      .unique()
      .execute();
    await db.schema
      .createIndex('_cms_menus_group_locale')
      .on('_cms_menus')
      .columns(['translation_group', 'locale'])
      .unique()
      .execute();

    await db.schema
      .createTable('_cms_menu_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('menu_id', 'text', (c) => c.notNull().references('_cms_menus.id').onDelete('cascade'))
      .addColumn('parent_id', 'text')
      .addColumn('position', int, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('label', 'text')
      .addColumn('url', 'text')
      .addColumn('collection_id', 'text')
      .addColumn('taxonomy', 'text')
      .addColumn('target_group', 'text')
      .addColumn('open_in_new_tab', int, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_menu_items_menu')
      .on('_cms_menu_items')
      .columns(['menu_id', 'parent_id', 'position'])
      .execute();
    // Content and term deletions remove the items that point at them.
    await db.schema.createIndex('_cms_menu_items_target').on('_cms_menu_items').column('target_group').execute();

    await db.schema
      .createTable('_cms_sections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_widget_areas')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_widgets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('area_id', 'text', (c) => c.notNull().references('_cms_widget_areas.id').onDelete('cascade'))
      .addColumn('position', int, (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_widgets_area')
      .on('_cms_widgets')
      .columns(['area_id', 'position', 'id'])
      .execute();
  },
};

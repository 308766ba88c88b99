import type { Migration } from './types.js';

/**
 * A second dedupe key on media items: `import_key` holds `sha1:<hex>` of the
 * bytes an import copied from another site (the WordPress media copy looks
 * items up by it, so a rerun reuses what it copied). It is a lookup key only,
 * unique like `dedupe_key`, and cleared when the item's file is replaced.
 */
export const migration016: Migration = {
  name: '016_media_import_key',
  async up(db) {
    await db.schema.alterTable('_cms_media').addColumn('import_key', 'text').execute();
    // A unique index rather than a column constraint: SQLite cannot add a UNIQUE column to a table.
    await db.schema.createIndex('_cms_media_import_key').unique().on('_cms_media').column('import_key').execute();
  },
};

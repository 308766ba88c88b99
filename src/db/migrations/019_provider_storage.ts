import type { Migration } from './types.js';

/**
 * Login providers' own short-lived records (the descriptor's `storage` collections): what a
 * provider's client library keeps between the start of a sign-in and its callback, such as the
 * AT Protocol client's authorization state. Keyed by provider, collection and the SHA-256 of the
 * key; every row expires (swept when rows are written). Not part of a site package.
 */
export const migration019: Migration = {
  name: '019_provider_storage',
  async up(db) {
    await db.schema
      .createTable('_cms_provider_storage')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('collection', 'text', (c) => c.notNull())
      // SHA-256 hex of the key (a key can be a secret, such as an OAuth state).
      .addColumn('key_hash', 'text', (c) => c.notNull())
      // JSON.
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_provider_storage_pk', ['provider', 'collection', 'key_hash'])
      .execute();
    await db.schema
      .createIndex('_cms_provider_storage_expires')
      .on('_cms_provider_storage')
      .column('expires_at')
      .execute();
  },
};

import type { Migration } from './types.js';

/**
 * Rate limits become a sliding log: one row per accepted request, kept for the
 * length of its window, instead of fixed-window counters (which let twice the
 * limit through across a window boundary). Old counters are simply dropped:
 * they only ever held the last few minutes.
 */
export const migration006: Migration = {
  name: '006_hardening',
  async up(db) {
    await db.schema.dropTable('_cms_rate_limits').ifExists().execute();
    await db.schema
      .createTable('_cms_rate_hits')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('_cms_rate_hits_key').on('_cms_rate_hits').columns(['key', 'at']).execute();
    await db.schema.createIndex('_cms_rate_hits_expires').on('_cms_rate_hits').column('expires_at').execute();
  },
};

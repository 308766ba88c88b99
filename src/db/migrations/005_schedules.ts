import type { Migration } from './types.js';

/**
 * Who scheduled each scheduled publication: the scheduler publishes with that
 * user's rights at the time it runs (never with the process's own), so a
 * scheduled publish cannot change rows its scheduler may not change.
 */
export const migration005: Migration = {
  name: '005_schedules',
  async up(db) {
    await db.schema
      .createTable('_cms_entry_schedules')
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('_cms_entry_schedules_pk', ['collection_id', 'entry_id'])
      .execute();
  },
};

import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * Site transfer: export and import operations (one table for both kinds,
 * driven in bounded steps under a lease), the files of each operation's
 * package, and the approvals an administrator gives to MCP clients whose
 * token lacks a transfer scope.
 */
export const migration017: Migration = {
  name: '017_transfer',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    await db.schema
      .createTable('_cms_transfer_operations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // export | import
      .addColumn('kind', 'text', (c) => c.notNull())
      // export: running | complete | failed; import: uploading | planned | executing | complete | failed | cancelled | abandoned
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('stage', 'text')
      .addColumn('options', 'text', (c) => c.notNull())
      // Import: the uploaded manifest, as sent (its digest is the package digest).
      .addColumn('manifest', 'text')
      .addColumn('package_digest', 'text')
      .addColumn('plan', 'text')
      .addColumn('plan_digest', 'text')
      .addColumn('decisions', 'text')
      .addColumn('cursor', 'text')
      .addColumn('progress', 'text', (c) => c.notNull())
      .addColumn('totals', 'text')
      .addColumn('receipt', 'text')
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('created_by', 'text')
      .addColumn('token_id', 'text')
      .addColumn('lease_token', 'text')
      .addColumn('lease_expires_at', 'text')
      // Bumped by every change: compare-and-set for leases and state moves.
      .addColumn('version', int, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema
      .createIndex('_cms_transfer_operations_kind')
      .on('_cms_transfer_operations')
      .columns(['kind', 'id'])
      .execute();

    await db.schema
      .createTable('_cms_transfer_files')
      .addColumn('operation_id', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('collection', 'text')
      // null until an import's file is uploaded
      .addColumn('storage_key', 'text')
      // 1: the operation's own object (removed with it); 0: a media library object the package points at
      .addColumn('owned', int, (c) => c.notNull())
      .addColumn('size', int, (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('records', int)
      .addColumn('position', int, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('uploaded_at', 'text')
      .addPrimaryKeyConstraint('_cms_transfer_files_pk', ['operation_id', 'path'])
      .execute();
    await db.schema
      .createIndex('_cms_transfer_files_position')
      .on('_cms_transfer_files')
      .columns(['operation_id', 'position'])
      .execute();

    await db.schema
      .createTable('_cms_transfer_approvals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('token_id', 'text', (c) => c.notNull())
      // export | import
      .addColumn('action', 'text', (c) => c.notNull())
      // The bound arguments (canonical JSON) and their SHA-256.
      .addColumn('args', 'text', (c) => c.notNull())
      .addColumn('args_digest', 'text', (c) => c.notNull())
      // pending | approved | denied | used (expiry is read from expires_at)
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('used_at', 'text')
      .addColumn('operation_id', 'text')
      .execute();
    await db.schema
      .createIndex('_cms_transfer_approvals_binding')
      .on('_cms_transfer_approvals')
      .columns(['user_id', 'token_id', 'action', 'args_digest'])
      .execute();
  },
};

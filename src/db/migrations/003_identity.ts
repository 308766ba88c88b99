import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * Identity and access: site settings, sessions, passkeys, WebAuthn challenges,
 * magic links, invites, sign-up requests, allowed domains and rate-limit counters.
 * Every secret (session id, link token) is stored as its SHA-256 hash.
 */
export const migration003: Migration = {
  name: '003_identity',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    await db.schema.alterTable('_cms_users').addColumn('last_sign_in_at', 'text').execute();

    // Key/value site settings (JSON values); the settings API builds on this table.
    await db.schema
      .createTable('_cms_settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('_cms_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('_cms_users.id').onDelete('cascade'))
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('absolute_expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('_cms_sessions_user').on('_cms_sessions').column('user_id').execute();
    await db.schema.createIndex('_cms_sessions_expires').on('_cms_sessions').column('expires_at').execute();

    await db.schema
      .createTable('_cms_passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('_cms_users.id').onDelete('cascade'))
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', int, (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('device_type', 'text', (c) => c.notNull())
      .addColumn('backed_up', int, (c) => c.notNull().defaultTo(0))
      .addColumn('aaguid', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('_cms_passkeys_user').on('_cms_passkeys').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('_cms_auth_challenges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('challenge', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('data', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_auth_challenges_expires')
      .on('_cms_auth_challenges')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('_cms_magic_links')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('_cms_users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('_cms_magic_links_user').on('_cms_magic_links').column('user_id').execute();
    await db.schema.createIndex('_cms_magic_links_expires').on('_cms_magic_links').column('expires_at').execute();

    await db.schema
      .createTable('_cms_invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', int, (c) => c.notNull())
      .addColumn('invited_by', 'text', (c) => c.references('_cms_users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('_cms_invites_email').on('_cms_invites').column('email').execute();
    await db.schema.createIndex('_cms_invites_created').on('_cms_invites').columns(['created_at', 'id']).execute();

    await db.schema
      .createTable('_cms_signup_requests')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_signup_requests_expires')
      .on('_cms_signup_requests')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('_cms_allowed_domains')
      .addColumn('domain', 'text', (c) => c.primaryKey())
      .addColumn('default_role', int, (c) => c.notNull())
      .addColumn('enabled', int, (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    // Fixed-window counters: key = "<rule>|<client ip>", one row per key.
    await db.schema
      .createTable('_cms_rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'text', (c) => c.notNull())
      .addColumn('count', int, (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('_cms_rate_limits_expires').on('_cms_rate_limits').column('expires_at').execute();
  },
};

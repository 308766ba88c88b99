import { sql } from 'kysely';
import { columnType } from '../dialect.js';
import type { Migration } from './types.js';

/**
 * OAuth 2.1 authorization server: registered clients, pending authorization
 * requests (waiting for consent), authorization codes, device authorizations
 * and issued tokens. Every secret (client secret, code, device code, token)
 * is stored only as its SHA-256 hash.
 */
export const migration004: Migration = {
  name: '004_oauth',
  async up(db, dialect) {
    const int = sql.raw(columnType(dialect, 'integer'));

    await db.schema
      .createTable('_cms_oauth_clients')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('secret_hash', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('client_uri', 'text')
      .addColumn('redirect_uris', 'text', (c) => c.notNull())
      .addColumn('grant_types', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('auth_method', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    // An authorize request waiting for the user's consent in the admin app.
    await db.schema
      .createTable('_cms_oauth_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('client_id', 'text', (c) => c.notNull().references('_cms_oauth_clients.id').onDelete('cascade'))
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('state', 'text')
      .addColumn('code_challenge', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('_cms_oauth_requests_expires').on('_cms_oauth_requests').column('expires_at').execute();

    await db.schema
      .createTable('_cms_oauth_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('family_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull().references('_cms_oauth_clients.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('_cms_users.id').onDelete('cascade'))
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('code_challenge', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('_cms_oauth_codes_created').on('_cms_oauth_codes').column('created_at').execute();

    await db.schema
      .createTable('_cms_oauth_device_codes')
      .addColumn('device_code_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_code', 'text', (c) => c.notNull().unique())
      .addColumn('client_id', 'text', (c) => c.notNull().references('_cms_oauth_clients.id').onDelete('cascade'))
      .addColumn('scopes', 'text', (c) => c.notNull())
      /** pending, approved, denied, consumed. */
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.references('_cms_users.id').onDelete('cascade'))
      .addColumn('granted_scopes', 'text')
      .addColumn('interval_seconds', int, (c) => c.notNull())
      .addColumn('last_polled_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_oauth_device_codes_expires')
      .on('_cms_oauth_device_codes')
      .column('expires_at')
      .execute();

    // Access and refresh tokens; a family is every token descending from one consent.
    await db.schema
      .createTable('_cms_oauth_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('family_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull().references('_cms_oauth_clients.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('_cms_users.id').onDelete('cascade'))
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('rotated_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('_cms_oauth_tokens_family').on('_cms_oauth_tokens').column('family_id').execute();
    await db.schema.createIndex('_cms_oauth_tokens_user').on('_cms_oauth_tokens').column('user_id').execute();
    await db.schema.createIndex('_cms_oauth_tokens_expires').on('_cms_oauth_tokens').column('expires_at').execute();
  },
};

import type { Migration } from './types.js';

/**
 * Login providers: the identities linked to each user (one row per provider
 * account, unique per provider and subject) and the sign-ins in flight between
 * the start route and the provider's callback (short-lived, single use, swept).
 * Neither table is part of a site package: credentials belong to one site.
 */
export const migration018: Migration = {
  name: '018_login_providers',
  async up(db) {
    await db.schema
      .createTable('_cms_user_identities')
      .addColumn('provider', 'text', (c) => c.notNull())
      // The provider's stable ID of the account (OpenID Connect `sub`, GitHub's numeric user ID, a DID).
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('_cms_users.id').onDelete('cascade'))
      // The address the provider gave at the last sign-in (shown on the account page; never used to sign in).
      .addColumn('address', 'text')
      // A handle for providers that have one (AT Protocol), shown on the account page.
      .addColumn('handle', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addPrimaryKeyConstraint('_cms_user_identities_pk', ['provider', 'subject'])
      .execute();
    await db.schema
      .createIndex('_cms_user_identities_user')
      .on('_cms_user_identities')
      .columns(['user_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('_cms_provider_signins')
      // SHA-256 of the `state` sent to the provider; the row is deleted when the callback uses it.
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      // SHA-256 of the short-lived cookie that binds the sign-in to the browser that started it.
      .addColumn('browser_hash', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('pkce_verifier', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      // login | setup | invite | link
      .addColumn('intent', 'text', (c) => c.notNull())
      // invite: SHA-256 of the invite token.
      .addColumn('invite_hash', 'text')
      // JSON: setup input (site title, tagline, name); what the provider keeps between its two steps.
      .addColumn('data', 'text')
      // link: the signed-in user the identity is added to.
      .addColumn('user_id', 'text', (c) => c.references('_cms_users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('_cms_provider_signins_expires')
      .on('_cms_provider_signins')
      .column('expires_at')
      .execute();
  },
};

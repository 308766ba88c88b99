/**
 * Row types of the system tables (`_cms_*`). Entry tables (`ec_<slug>`) are
 * dynamic and are read through the schema service's column map.
 * Flags are integers 0/1 on both dialects; instants are ISO 8601 UTC text.
 */
import type { Generated } from 'kysely';
import type { IdentityTables } from './tables-identity.js';
import type { MediaTables } from './tables-media.js';
import type { OAuthTables } from './tables-oauth.js';
import type { PublicTables } from './tables-public.js';
import type { SearchTables } from './tables-search.js';
import type { StructureTables } from './tables-structure.js';
import type { TransferTables } from './tables-transfer.js';
import type { UsageTables } from './tables-usage.js';

export interface MetaTable {
  key: string;
  value: string;
}

export interface MigrationsTable {
  name: string;
  applied_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string | null;
  role: number;
  disabled: number;
  created_at: string;
  updated_at: string;
  /** Added by migration 003. */
  last_sign_in_at: string | null;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface CollectionsTable {
  id: string;
  slug: string;
  label: string;
  label_singular: string;
  description: string | null;
  icon: string | null;
  supports: string;
  /** Added by migration 010: URL pattern (text or JSON object per locale); null when not routable. */
  url_pattern: string | null;
  sort_order: number;
  source: string;
  created_at: string;
  updated_at: string;
}

export interface FieldsTable {
  id: string;
  collection_id: string;
  slug: string;
  label: string;
  type: string;
  column_name: string | null;
  retired_column: string | null;
  required: number;
  is_unique: number;
  searchable: number;
  indexed: number;
  translatable: number;
  default_value: string | null;
  validation: string | null;
  widget: string | null;
  options: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface RelationsTable {
  id: string;
  name: string;
  parent_collection_id: string;
  child_collection_id: string;
  parent_field_id: string | null;
  child_field_id: string | null;
  multiple: number;
  created_at: string;
}

export interface LinksTable {
  relation_id: string;
  parent_group: string;
  child_group: string;
  position: number;
  created_at: string;
}

export interface BlockTypesTable {
  id: string;
  slug: string;
  label: string;
  description: string | null;
  icon: string | null;
  active_version: number;
  created_at: string;
  updated_at: string;
}

export interface BlockTypeVersionsTable {
  block_type_id: string;
  version: number;
  label: string;
  fields: string;
  created_at: string;
}

export interface RevisionsTable {
  id: string;
  collection_id: string;
  entry_id: string;
  slug: string | null;
  /** JSON: field values of the entry at this revision. */
  data: string;
  /** JSON: staged reference selections (field slug → translation groups), or null. */
  refs: string | null;
  /** JSON: staged byline credits, or null. */
  bylines: string | null;
  kind: string;
  created_by: string | null;
  created_at: string;
}

export interface LocksTable {
  collection_id: string;
  entry_id: string;
  user_id: string;
  user_name: string | null;
  token: string | null;
  acquired_at: string;
  expires_at: string;
}

export interface BylinesTable {
  id: string;
  display_name: string;
  slug: string;
  bio: string | null;
  avatar_url: string | null;
  website_url: string | null;
  user_id: string | null;
  locale: string;
  translation_group: string;
  created_at: string;
  updated_at: string;
}

export interface EntryBylinesTable {
  collection_id: string;
  entry_id: string;
  byline_id: string;
  position: number;
  role_label: string | null;
}

/** Who scheduled a scheduled publication (the scheduler publishes with that user's rights). */
export interface EntrySchedulesTable {
  collection_id: string;
  entry_id: string;
  user_id: string | null;
  created_at: string;
}

/**
 * System tables; the identity tables (sessions, passkeys …) are declared in tables-identity.ts, OAuth in
 * tables-oauth.ts, the public side (comments, redirects, SEO) in tables-public.ts, media in tables-media.ts,
 * site structure (taxonomies, menus, sections, widgets) in tables-structure.ts, search in tables-search.ts,
 * media usage in tables-usage.ts, site transfer in tables-transfer.ts.
 */
export interface Tables
  extends IdentityTables,
    OAuthTables,
    PublicTables,
    MediaTables,
    StructureTables,
    SearchTables,
    UsageTables,
    TransferTables {
  _cms_meta: MetaTable;
  _cms_migrations: MigrationsTable;
  _cms_users: UsersTable;
  _cms_api_tokens: ApiTokensTable;
  _cms_collections: CollectionsTable;
  _cms_fields: FieldsTable;
  _cms_relations: RelationsTable;
  _cms_links: LinksTable;
  _cms_block_types: BlockTypesTable;
  _cms_block_type_versions: BlockTypeVersionsTable;
  _cms_revisions: RevisionsTable;
  _cms_locks: LocksTable;
  _cms_bylines: BylinesTable;
  _cms_entry_bylines: EntryBylinesTable;
  _cms_entry_schedules: EntrySchedulesTable;
}

export type { Generated };

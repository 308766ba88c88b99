/** Row types of the media usage tables (migration 012). */
export interface MediaUsageTable {
  collection_id: string;
  entry_id: string;
  /** Top-level field holding the reference. */
  field_id: string;
  media_id: string;
  locale: string;
  /** 1 when the reference is in the live values, 0 when only the pending draft has it. */
  live: number;
}

export interface MediaUsageStateTable {
  id: string;
  /** `expanded`, `activating` or `active` (another value: written by a newer version). */
  state: string;
  last_error_code: string | null;
  started_at: string | null;
  activated_at: string | null;
  updated_at: string;
}

export interface MediaUsageCollectionsTable {
  collection_id: string;
  slug: string;
  /** `pending`, `running`, `complete`, `partial`, `failed` or `stale`. */
  status: string;
  entries: number;
  referencing: number;
  references: number;
  skipped: number;
  last_error_code: string | null;
  updated_at: string;
}

export interface MediaUsageWorkTable {
  id: string;
  /** `index` or `collection-deletion`. */
  kind: string;
  collection_id: string;
  collection_slug: string;
  /** `pending`, `running`, `done` or `failed`. */
  status: string;
  cursor: string | null;
  lease_token: string | null;
  lease_expires_at: string | null;
  attempts: number;
  last_error_code: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface UsageTables {
  _cms_media_usage: MediaUsageTable;
  _cms_media_usage_state: MediaUsageStateTable;
  _cms_media_usage_collections: MediaUsageCollectionsTable;
  _cms_media_usage_work: MediaUsageWorkTable;
}

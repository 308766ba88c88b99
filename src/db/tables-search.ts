/**
 * Row type of the search settings table (migration 009). The index tables
 * (`_cms_fts_<collection id>_<generation>`) are dynamic and managed by the
 * search service's engines.
 */
export interface SearchCollectionsTable {
  collection_id: string;
  /** `porter unicode61`, `unicode61` or `trigram`. */
  tokenizer: string;
  /** JSON: field ID → weight. */
  weights: string;
  /** Bumped for every index table made, so each build gets a fresh name. */
  generation: number;
  index_table: string | null;
  index_tokenizer: string | null;
  /** JSON: field ID → tier letter (a–d) of the index table. */
  index_tiers: string | null;
  build_table: string | null;
  build_tokenizer: string | null;
  build_tiers: string | null;
  /** `indexing`, `merging` or `ranking`. */
  build_phase: string | null;
  /** Last entry ID a rebuild step indexed (`ranking`: the last document handle visited). */
  build_cursor: string | null;
  build_done: number;
  build_total: number;
  build_started_at: string | null;
  build_reason: string | null;
  last_rebuild_at: string | null;
  last_rebuild_ms: number | null;
  updated_at: string;
}

export interface SearchTables {
  _cms_search_collections: SearchCollectionsTable;
}

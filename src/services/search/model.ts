/** Shapes of the search domain. */

/** Tokenizers of the spec; the names are FTS5's and mean the same on PostgreSQL. */
export const TOKENIZERS = ['porter unicode61', 'unicode61', 'trigram'] as const;
export type Tokenizer = (typeof TOKENIZERS)[number];
export const DEFAULT_TOKENIZER: Tokenizer = 'porter unicode61';

/**
 * Weight tiers. PostgreSQL ranks four weight classes (A–D), so the index keeps
 * a document's text in four columns and searchable fields of equal weight
 * share one; SQLite's bm25 gets the same four column weights.
 */
export type Tier = 'a' | 'b' | 'c' | 'd';
export const TIERS: readonly Tier[] = ['a', 'b', 'c', 'd'];
/** Field ID → tier. */
export type TierMap = Record<string, Tier>;

/** An index table: its base name and the shape its documents were built with. */
export interface IndexShape {
  table: string;
  tokenizer: Tokenizer;
  tiers: TierMap;
}

/**
 * One indexed document. An entry has at most two: what everyone may read
 * (`live`: published, not trashed) and what draft readers see (`current`: the
 * pending draft over the live values). Without a pending draft one document
 * serves both.
 */
export interface SearchDoc {
  entryId: string;
  /** The entry row's version the document was made from (catch-up compares it). */
  version: number;
  live: boolean;
  current: boolean;
  locale: string;
  status: string;
  slug: string | null;
  title: string;
  text: Record<Tier, string>;
}

/** Which documents a reader may find: `live` for readers without draft access, `current` for draft readers. */
export type Visibility = 'live' | 'current';

export interface SearchHit {
  id: string;
  collection: string;
  locale: string;
  slug: string | null;
  title: string | null;
  status: string;
  /** Best matching passage, HTML-escaped, matches wrapped in `<mark>`. */
  snippet: string;
  /** Relevance, higher first; comparable within one query on one database. */
  score: number;
}

export interface SearchResult {
  items: SearchHit[];
  nextCursor?: string;
}

export interface Suggestion {
  id: string;
  collection: string;
  locale: string;
  slug: string | null;
  title: string;
}

export type IndexState = 'disabled' | 'ready' | 'building';

export const BUILD_PHASES = ['indexing', 'merging', 'ranking'] as const;
export type BuildPhase = (typeof BUILD_PHASES)[number];

export interface BuildProgress {
  /**
   * `indexing` entries, then `merging` the new index, then `ranking`: the head lists of common words
   * are filled (done/total count documents then), before the new index replaces the old one.
   */
  phase: BuildPhase;
  done: number;
  total: number;
  startedAt: string;
  reason: string;
}

export interface CollectionSearchStatus {
  collection: string;
  enabled: boolean;
  tokenizer: Tokenizer;
  /** Searchable field slug → weight. */
  weights: Record<string, number>;
  state: IndexState;
  documents: number | null;
  sizeBytes: number | null;
  lastRebuildAt: string | null;
  lastRebuildMs: number | null;
  build: BuildProgress | null;
}

import type { Kdb } from '../../db/connect.js';
import type { HeadEngine } from './heads.js';
import type { SearchDoc, Tier, Tokenizer, Visibility } from './model.js';
import type { ParsedQuery } from './query.js';

/**
 * Where the next page starts, for one collection's candidates (results are
 * ordered by score descending, then collection slug, then entry ID).
 * `tie`: which equal-score rows still come: all (`include`), none
 * (`exclude`), or those with an ID after `id`.
 */
export interface Keyset {
  score: number;
  tie: 'include' | 'exclude' | 'after';
  id: string;
}

export interface RankRequest {
  table: string;
  tokenizer: Tokenizer;
  query: ParsedQuery;
  tierWeights: Record<Tier, number>;
  locale: string;
  visibility: Visibility;
  after: Keyset | null;
  limit: number;
  /**
   * Matches ranked at most (`searchRankWindow`). Ranking reads every matching
   * document's statistics, so a query matching most of a large collection (a
   * very common word) would cost a scan: each collection ranks at most this
   * many matches, the most recently written ones on SQLite, the first in table
   * order on PostgreSQL. Selective queries never reach it; broad ones stay fast
   * and still put the best of those first.
   */
  window: number;
}

export interface Candidate {
  entryId: string;
  score: number;
  /** Engine-private handle of the document (SQLite rowid), passed back to `passages`. */
  ref: number | string;
}

/**
 * What a result shows. `snippets` holds one text per tier (empty for an
 * empty tier), still carrying the raw match markers (MARK_OPEN / MARK_CLOSE):
 * the whole tier text when `whole` (the service cuts the passage of the tier
 * it shows, see passage-window.ts), else a passage the engine cut.
 */
export interface Passage {
  entryId: string;
  locale: string;
  slug: string | null;
  title: string;
  status: string;
  snippets: Record<Tier, string>;
  whole: boolean;
}

export interface SuggestRequest {
  table: string;
  tokenizer: Tokenizer;
  query: ParsedQuery;
  /** The input as typed (trimmed), for titles that start with it. */
  text: string;
  locale: string;
  visibility: Visibility;
  limit: number;
}

export interface SuggestRow {
  entryId: string;
  locale: string;
  slug: string | null;
  title: string;
}

export interface WriteOptions {
  /** The entries are new in the writing transaction: no document of theirs can be in the index. */
  fresh?: boolean;
}

/** The few operations that differ between SQLite (FTS5) and PostgreSQL (tsvector, pg_trgm). */
export interface SearchEngine {
  /** Head lists of common keys (heads.ts): this engine's tokens, terms and scores. */
  heads: HeadEngine;
  /** Can this database build an index with the tokenizer? (trigram needs pg_trgm on PostgreSQL.) */
  supports(db: Kdb, tokenizer: Tokenizer): Promise<boolean>;
  create(trx: Kdb, table: string, tokenizer: Tokenizer): Promise<void>;
  drop(trx: Kdb, table: string): Promise<void>;
  /**
   * Was the index built in an older storage layout of this engine? Such an
   * index keeps working (searches, entry writes) while the background worker
   * rebuilds it in the current one, so an upgrade needs no manual step.
   */
  outdated(db: Kdb, table: string): Promise<boolean>;
  /**
   * A bounded piece of compaction after a build filled the table (FTS5 merges its segments so
   * searches read one b-tree); true when nothing is left to do.
   */
  compact(trx: Kdb, table: string): Promise<boolean>;
  /** A build filled the table: refresh planner statistics so its indexes get used at once. */
  built(trx: Kdb, table: string): Promise<void>;
  /**
   * Replace every document of the given entries with `docs` (which may be empty). `fresh`: the
   * entries' rows were inserted by this transaction (a create, a duplicate, an import batch), so the
   * index holds nothing of theirs yet and there is nothing to remove first.
   */
  write(
    trx: Kdb,
    table: string,
    tokenizer: Tokenizer,
    entryIds: string[],
    docs: SearchDoc[],
    options?: WriteOptions,
  ): Promise<void>;
  /**
   * Entries whose documents do not match their row: written at or after `since` with no document
   * or one made from another version, trashed with documents left, or gone with documents left.
   */
  stale(db: Kdb, table: string, entryTable: string, since: string): Promise<string[]>;
  rank(db: Kdb, req: RankRequest): Promise<Candidate[]>;
  passages(db: Kdb, req: RankRequest, candidates: Candidate[]): Promise<Passage[]>;
  suggest(db: Kdb, req: SuggestRequest): Promise<SuggestRow[]>;
  stats(db: Kdb, table: string): Promise<{ documents: number; sizeBytes: number | null }>;
  /** Entry IDs that have documents in the index after `after`, in ID order, at most `limit` (the consistency checker). */
  indexedEntries(db: Kdb, table: string, after: string | null, limit: number): Promise<string[]>;
  /** What the index holds for the given entries: one key per document (the consistency checker). */
  documentKeys(db: Kdb, table: string, entryIds: string[]): Promise<DocumentKey[]>;
  /** Base names of every index table in the database, whatever the settings say (leftovers included). */
  indexTables(db: Kdb): Promise<string[]>;
}

/** An indexed document as the consistency checker compares it with what the entry implies. */
export interface DocumentKey {
  entryId: string;
  version: number;
  live: boolean;
  current: boolean;
  locale: string;
  status: string;
}

/** Snippet match markers: control characters, which indexed text never contains (text.ts strips them). */
export const MARK_OPEN = '\u0001';
export const MARK_CLOSE = '\u0002';

/** Index table names: `_cms_fts_<collection id>_<generation>`, safe to quote as identifiers. */
const TABLE_NAME = /^_cms_fts_[0-9a-z]{26}_[0-9]{1,9}$/;

export function indexTableName(collectionId: string, generation: number): string {
  return assertIndexTable(`_cms_fts_${collectionId.toLowerCase()}_${generation}`);
}

/** The index table a table of an index belongs to (`_cms_fts_<id>_<gen>` and its `_docs`, `_heads` … tables). */
export function indexBaseOf(name: string): string | null {
  return /^(_cms_fts_[0-9a-z]{26}_[0-9]{1,9})(?:_[a-z]+)?$/.exec(name)?.[1] ?? null;
}

export function assertIndexTable(name: string): string {
  if (!TABLE_NAME.test(name)) throw new Error(`unsafe search index table name: ${name}`);
  return name;
}

/** Candidates that come after the keyset (same rule the SQL applies; used by tests of the rule). */
export function afterKeyset(k: Keyset, score: number, id: string): boolean {
  if (score !== k.score) return score < k.score;
  return k.tie === 'include' || (k.tie === 'after' && id > k.id);
}

import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import type { SearchCollectionsTable } from '../../db/tables-search.js';
import {
  BUILD_PHASES,
  type BuildPhase,
  DEFAULT_TOKENIZER,
  type IndexShape,
  type TierMap,
  type Tokenizer,
} from './model.js';

/** A collection's search settings and index state (one `_cms_search_collections` row). */
export interface SearchSettings {
  collectionId: string;
  tokenizer: Tokenizer;
  /** Field ID → weight. */
  weights: Record<string, number>;
  generation: number;
  /** The index searches read. */
  index: IndexShape | null;
  /** A rebuild in progress. */
  build: BuildState | null;
  lastRebuildAt: string | null;
  lastRebuildMs: number | null;
}

export interface BuildState extends IndexShape {
  /** `indexing` entries in ID order, then `merging` what the steps wrote, then `ranking` (head lists), then the swap. */
  phase: BuildPhase;
  /** Last entry ID indexed (`ranking`: the last document handle visited); null before the phase's first step. */
  cursor: string | null;
  done: number;
  total: number;
  startedAt: string;
  reason: string;
}

const tiersOf = (text: string | null): TierMap => (text ? (JSON.parse(text) as TierMap) : {});

function fromRow(r: SearchCollectionsTable): SearchSettings {
  return {
    collectionId: r.collection_id,
    tokenizer: r.tokenizer as Tokenizer,
    weights: JSON.parse(r.weights) as Record<string, number>,
    generation: Number(r.generation),
    index: r.index_table
      ? { table: r.index_table, tokenizer: r.index_tokenizer as Tokenizer, tiers: tiersOf(r.index_tiers) }
      : null,
    build: r.build_table
      ? {
          table: r.build_table,
          tokenizer: r.build_tokenizer as Tokenizer,
          tiers: tiersOf(r.build_tiers),
          phase: (BUILD_PHASES as readonly string[]).includes(r.build_phase ?? '')
            ? (r.build_phase as BuildPhase)
            : 'indexing',
          cursor: r.build_cursor,
          done: Number(r.build_done),
          total: Number(r.build_total),
          startedAt: r.build_started_at ?? '',
          reason: r.build_reason ?? 'rebuild',
        }
      : null,
    lastRebuildAt: r.last_rebuild_at,
    lastRebuildMs: r.last_rebuild_ms === null ? null : Number(r.last_rebuild_ms),
  };
}

export function defaultSettings(collectionId: string): SearchSettings {
  return {
    collectionId,
    tokenizer: DEFAULT_TOKENIZER,
    weights: {},
    generation: 0,
    index: null,
    build: null,
    lastRebuildAt: null,
    lastRebuildMs: null,
  };
}

export async function readSettings(db: Kdb, collectionId: string): Promise<SearchSettings | null> {
  const row = await db
    .selectFrom('_cms_search_collections')
    .selectAll()
    .where('collection_id', '=', collectionId)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

export async function readAllSettings(db: Kdb, collectionIds?: string[]): Promise<Map<string, SearchSettings>> {
  if (collectionIds && !collectionIds.length) return new Map();
  let q = db.selectFrom('_cms_search_collections').selectAll();
  if (collectionIds) q = q.where('collection_id', 'in', collectionIds);
  return new Map((await q.execute()).map((r) => [r.collection_id, fromRow(r)]));
}

/** How long searches reuse settings they read: another process's change shows within this. */
export const SETTINGS_TTL_MS = 1_000;

/**
 * Settings as searches read them, kept `SETTINGS_TTL_MS` so a search costs no
 * statement for them; this process forgets them whenever it saves any (and
 * once the saving transaction is over). A search that meets a table a newer
 * build dropped reads them afresh (read.ts).
 */
export function settingsCache() {
  let kept = new Map<string, SearchSettings | null>();
  let at = 0;
  return {
    async read(db: Kdb, collectionIds: string[]): Promise<Map<string, SearchSettings>> {
      const now = Date.now();
      if (now - at > SETTINGS_TTL_MS) {
        kept = new Map();
        at = now;
      }
      const missing = collectionIds.filter((id) => !kept.has(id));
      if (missing.length) {
        const found = await readAllSettings(db, missing);
        for (const id of missing) kept.set(id, found.get(id) ?? null);
      }
      const out = new Map<string, SearchSettings>();
      for (const id of collectionIds) {
        const s = kept.get(id);
        if (s) out.set(id, s);
      }
      return out;
    },
    forget(): void {
      kept = new Map();
    },
  };
}

export type SettingsCache = ReturnType<typeof settingsCache>;

export async function saveSettings(db: Kdb, s: SearchSettings, now: string): Promise<void> {
  const values = {
    tokenizer: s.tokenizer,
    weights: JSON.stringify(s.weights),
    generation: s.generation,
    index_table: s.index?.table ?? null,
    index_tokenizer: s.index?.tokenizer ?? null,
    index_tiers: s.index ? JSON.stringify(s.index.tiers) : null,
    build_table: s.build?.table ?? null,
    build_tokenizer: s.build?.tokenizer ?? null,
    build_tiers: s.build ? JSON.stringify(s.build.tiers) : null,
    build_phase: s.build?.phase ?? null,
    build_cursor: s.build?.cursor ?? null,
    build_done: s.build?.done ?? 0,
    build_total: s.build?.total ?? 0,
    build_started_at: s.build?.startedAt ?? null,
    build_reason: s.build?.reason ?? null,
    last_rebuild_at: s.lastRebuildAt,
    last_rebuild_ms: s.lastRebuildMs,
    updated_at: now,
  };
  await db
    .insertInto('_cms_search_collections')
    .values({ collection_id: s.collectionId, ...values })
    .onConflict((oc) => oc.column('collection_id').doUpdateSet(values))
    .execute();
}

export async function deleteSettings(db: Kdb, collectionId: string): Promise<void> {
  await db.deleteFrom('_cms_search_collections').where('collection_id', '=', collectionId).execute();
}

/**
 * Serialise index maintenance per collection on PostgreSQL. Entry writes take
 * the lock shared (they run side by side); rebuild steps, enabling and schema
 * changes take it exclusive, so a rebuild never reads an entry a concurrent
 * write is about to change without that write also reaching the new table.
 * SQLite runs one writer at a time already.
 */
const LOCK_CLASS = 726_354_009;

export async function lockCollection(
  trx: Kdb,
  dialect: DialectName,
  collectionId: string,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  if (dialect !== 'postgres') return;
  const fn = sql.raw(mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock');
  await sql`select ${fn}(${LOCK_CLASS}, hashtext(${collectionId}))`.execute(trx);
}

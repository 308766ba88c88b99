import { type RawBuilder, sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { runNamed } from '../../db/pg-named.js';
import { afterKeyset, type Candidate, type Keyset } from './engine.js';
import type { TierCounts } from './head-keys.js';
import { floorsOf, type HeadScoring, headsOf, keysOf, SEEN_CURRENT, SEEN_LIVE } from './heads.js';
import type { Tier, Visibility } from './model.js';

/**
 * One-key searches answered from head lists (heads.ts): the list's rows above
 * its floor, scored with the engine's own formula and the current weights,
 * ordered like every search (score descending, then entry ID).
 */
export interface HeadQuery {
  table: string;
  /** The key, or SQL computing it from the query word (null when it has none). */
  key: RawBuilder<unknown>;
  locale: string;
  visibility: Visibility;
  weights: Record<Tier, number>;
  after: Keyset | null;
  limit: number;
}

/**
 * Rank a one-key query from the key's list: null when the key has none (the
 * engine ranks it). Scores are the engine's own for that query; the order is
 * score descending, then entry ID, as everywhere.
 */
export async function rankFromHeads(db: Kdb, scoring: HeadScoring, q: HeadQuery): Promise<Candidate[] | null> {
  // One statement: whether the key has lists, and this locale's list above its floor (a row below it
  // comes from a write that raced a cut: the list is complete above the floor only).
  const { rows: found } = await runNamed(
    db,
    sql<{
      df: number;
      doc: number | null;
      entry: string;
      seen: number;
      ta: number;
      tb: number;
      tc: number;
      td: number;
      len: number;
    }>`select k.df, h.doc, h.entry, h.seen, h.ta, h.tb, h.tc, h.td, h.len from ${keysOf(q.table)} k
    left join ${floorsOf(q.table)} f on f.key = k.key and f.locale = ${q.locale}
    left join ${headsOf(q.table)} h on h.key = k.key and h.locale = ${q.locale} and h.score >= f.floor
    where k.key = ${q.key}`,
  );
  if (!found[0]) return null;
  const corpus = await scoring.corpus(db, q.table, Number(found[0].df));
  const after = q.after;
  const page: Candidate[] = [];
  for (const r of found) {
    if (r.doc === null || !(Number(r.seen) & (q.visibility === 'live' ? SEEN_LIVE : SEEN_CURRENT))) continue;
    const tf: TierCounts = [Number(r.ta), Number(r.tb), Number(r.tc), Number(r.td)];
    const score = scoring.score(corpus, q.weights, tf, Number(r.len));
    if (after && !afterKeyset(after, score, r.entry)) continue;
    page.push({ entryId: r.entry, score, ref: Number(r.doc) });
  }
  page.sort((x, y) => y.score - x.score || (x.entryId < y.entryId ? -1 : 1));
  return page.slice(0, q.limit);
}

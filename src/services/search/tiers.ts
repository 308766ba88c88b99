import { z } from 'zod';
import { issuesError } from '../../core/errors.js';
import type { FieldInfo } from '../schema/model.js';
import { TIERS, type Tier, type TierMap } from './model.js';

export const DEFAULT_WEIGHT = 1;
export const MAX_WEIGHT = 100;

/** A field's weight: more than 0, at most MAX_WEIGHT (the enable body and stored settings alike). */
export const SearchWeight = z.number().positive().max(MAX_WEIGHT);

/**
 * Group searchable fields by weight into the four tiers. A group keeps the
 * tier its fields had in `previous` where it can, so changing a weight value
 * without regrouping fields needs no rebuild (weights apply at query time).
 */
export function planTiers(
  fields: FieldInfo[],
  weights: Record<string, number>,
  previous: TierMap | null,
): { tiers: TierMap; weights: Record<Tier, number> } {
  const groups = new Map<number, string[]>();
  for (const f of fields) {
    const w = weights[f.id] ?? DEFAULT_WEIGHT;
    groups.set(w, [...(groups.get(w) ?? []), f.id]);
  }
  if (groups.size > TIERS.length) {
    throw issuesError('Too many different weights', [
      {
        path: ['weights'],
        code: 'too_many_weights',
        message: `searchable fields may use at most ${TIERS.length} different weights (PostgreSQL ranks four weight classes)`,
      },
    ]);
  }
  // Heavier groups first, so a fresh index puts the heaviest text in tier a.
  const ordered = [...groups.entries()].sort((x, y) => y[0] - x[0]);
  const taken = new Set<Tier>();
  const letterOf = new Map<number, Tier>();
  // Largest groups choose first: they keep their previous tier when most of their fields had it.
  for (const [w, ids] of [...ordered].sort((x, y) => y[1].length - x[1].length)) {
    const votes = new Map<Tier, number>();
    for (const id of ids) {
      const t = previous?.[id];
      if (t && !taken.has(t)) votes.set(t, (votes.get(t) ?? 0) + 1);
    }
    const best = [...votes.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0];
    if (best) {
      letterOf.set(w, best[0]);
      taken.add(best[0]);
    }
  }
  for (const [w] of ordered) {
    if (letterOf.has(w)) continue;
    const free = TIERS.find((t) => !taken.has(t))!;
    letterOf.set(w, free);
    taken.add(free);
  }
  const tiers: TierMap = {};
  const tierWeights: Record<Tier, number> = { a: 0, b: 0, c: 0, d: 0 };
  for (const [w, ids] of ordered) {
    const t = letterOf.get(w)!;
    tierWeights[t] = w;
    for (const id of ids) tiers[id] = t;
  }
  return { tiers, weights: tierWeights };
}

/** Weights of an index's tiers under the current field weights (fields of one tier share a weight). */
export function tierWeightsOf(tiers: TierMap, weights: Record<string, number>): Record<Tier, number> {
  const out: Record<Tier, number> = { a: 0, b: 0, c: 0, d: 0 };
  for (const [id, t] of Object.entries(tiers)) out[t] = Math.max(out[t], weights[id] ?? DEFAULT_WEIGHT);
  return out;
}

/**
 * Whether documents built with `from` must be rebuilt to match `to`: a field
 * changed tier, left the index, or joined it while entries may hold values
 * (`emptyFields` lists fields that cannot have values yet, e.g. just added
 * without a default).
 */
export function needsRebuild(from: TierMap, to: TierMap, emptyFields: ReadonlySet<string> = new Set()): boolean {
  for (const [id, t] of Object.entries(from)) if (to[id] !== t) return true;
  for (const id of Object.keys(to)) if (!(id in from) && !emptyFields.has(id)) return true;
  return false;
}

export function searchableFields(fields: FieldInfo[]): FieldInfo[] {
  return fields.filter((f) => f.searchable && f.column !== null);
}

import { describe, expect, it } from 'vitest';
import type { FieldInfo } from '../../../src/services/schema/model.js';
import { needsRebuild, planTiers, tierWeightsOf } from '../../../src/services/search/tiers.js';

const fields = (...ids: string[]) => ids.map((id) => ({ id }) as FieldInfo);

describe('weight tiers', () => {
  it('puts equal weights in one tier, heaviest first on a fresh index', () => {
    const plan = planTiers(fields('t', 'b', 'c'), { t: 10, b: 1, c: 1 }, null);
    expect(plan.tiers).toEqual({ t: 'a', b: 'b', c: 'b' });
    expect(plan.weights).toEqual({ a: 10, b: 1, c: 0, d: 0 });
  });

  it('keeps tiers when only weight values change, so no rebuild is needed', () => {
    const first = planTiers(fields('t', 'b'), { t: 10, b: 1 }, null);
    const second = planTiers(fields('t', 'b'), { t: 3, b: 7 }, first.tiers);
    expect(second.tiers).toEqual(first.tiers);
    expect(needsRebuild(first.tiers, second.tiers)).toBe(false);
    expect(tierWeightsOf(second.tiers, { t: 3, b: 7 })).toEqual({ a: 3, b: 7, c: 0, d: 0 });
  });

  it('needs a rebuild when fields regroup, leave, or join with possible values', () => {
    const first = planTiers(fields('t', 'b'), { t: 1, b: 1 }, null);
    const split = planTiers(fields('t', 'b'), { t: 5, b: 1 }, first.tiers);
    expect(needsRebuild(first.tiers, split.tiers)).toBe(true);
    const removed = planTiers(fields('t'), { t: 1 }, first.tiers);
    expect(needsRebuild(first.tiers, removed.tiers)).toBe(true);
    const added = planTiers(fields('t', 'b', 'n'), { t: 1, b: 1, n: 1 }, first.tiers);
    expect(needsRebuild(first.tiers, added.tiers)).toBe(true);
    expect(needsRebuild(first.tiers, added.tiers, new Set(['n']))).toBe(false);
  });

  it('refuses a fifth weight (PostgreSQL ranks four classes)', () => {
    expect(() => planTiers(fields('a', 'b', 'c', 'd', 'e'), { a: 1, b: 2, c: 3, d: 4, e: 5 }, null)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
  });
});

/** Seeded choices and what tests read from answers, shared by the crash recovery tests and the soak. */

/** A small deterministic generator (mulberry32): the same seed picks the same delays and choices. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** A whole number in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
  };
}

/** The entry version inside a `_rev` token (src/services/content/rev.ts: base64url of "<id>.<version>"). */
export function versionOfRev(rev: string): number {
  const text = Buffer.from(rev, 'base64url').toString();
  return Number(text.slice(text.lastIndexOf('.') + 1));
}

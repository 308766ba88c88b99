import { FINDINGS_KEPT, type FindingSink } from './model.js';

type Pending = Parameters<FindingSink['add']>[0];

/**
 * Findings held back until a repair of their collection has run, so they can say whether it
 * succeeded (a rebuild either finishes or does not). At most FINDINGS_KEPT are held in full, as
 * many as the report keeps; the others are only counted, per code and collection, and reach the
 * sink as counted findings the report no longer keeps in full.
 */
export function pendingFindings(sink: FindingSink) {
  const kept: Pending[] = [];
  const counted = new Map<string, { f: Pending; n: number }>();
  let size = 0;
  return {
    add(f: Pending): void {
      size++;
      if (kept.length < FINDINGS_KEPT) {
        kept.push(f);
        return;
      }
      const key = `${f.code}\u0000${f.collection ?? ''}`;
      const had = counted.get(key);
      if (had) had.n++;
      else counted.set(key, { f, n: 1 });
    },
    get size(): number {
      return size;
    },
    /** Hand everything held to the sink; repairable ones are marked repaired when `repaired`. */
    flush(repaired: boolean): void {
      const mark = (f: Pending) => ({ ...f, repaired: f.repairable && repaired });
      for (const f of kept) sink.add(mark(f));
      for (const { f, n } of counted.values()) for (let i = 0; i < n; i++) sink.add(mark(f));
      kept.length = 0;
      counted.clear();
      size = 0;
    },
  };
}

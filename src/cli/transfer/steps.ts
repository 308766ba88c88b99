/**
 * Following an operation the site moves on one bounded step at a time (an
 * export, an import's analysis or execution): call again while the answer's
 * `nextRequestInMs` is not null, after waiting that long.
 */

/** Never wait longer than this between two steps, whatever the site says. */
export const MAX_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Send `step` as the site asks until it says there is nothing left to do; the last answer. */
export async function followSteps<T extends { id: string; nextRequestInMs: number | null }>(
  first: T,
  step: (id: string) => Promise<T>,
  onStep: (op: T) => void,
): Promise<T> {
  let op = first;
  while (op.nextRequestInMs !== null) {
    if (op.nextRequestInMs > 0) await sleep(Math.min(op.nextRequestInMs, MAX_WAIT_MS));
    op = await step(op.id);
    onStep(op);
  }
  return op;
}

/**
 * Waiting in tests: wait for a condition, never for a fixed time. A sleep that is long enough on an
 * idle machine is too short on a busy one (2 cores shared with PostgreSQL and Chromium), and one
 * long enough for a busy machine slows every idle run.
 */

export interface WaitOptions {
  /** What is awaited, for the failure message ("the listener to reconnect"). */
  what: string;
  /** Give up after this long; generous, since a passing wait ends as soon as the condition holds. */
  timeoutMs?: number;
  /** Time between two checks. */
  intervalMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return String(value);
  }
}

/**
 * Check `condition` until it returns (or resolves to) a truthy value and resolve with that value.
 * A check that throws counts as not yet; past `timeoutMs` the wait fails with a message naming
 * `what` and the last value or error seen.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { what, timeoutMs = 15_000, intervalMs = 25 }: WaitOptions,
): Promise<NonNullable<T>> {
  const started = performance.now();
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  for (let checks = 1; ; checks++) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    const elapsed = performance.now() - started;
    if (elapsed >= timeoutMs) {
      const seen = 'error' in last ? `the last check threw ${describe(last.error)}` : `last ${describe(last.value)}`;
      throw new Error(`Timed out after ${Math.round(elapsed)} ms (${checks} checks) waiting for ${what}: ${seen}`, {
        cause: 'error' in last ? last.error : undefined,
      });
    }
    await pause(Math.min(intervalMs, timeoutMs - elapsed));
  }
}

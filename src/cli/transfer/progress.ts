import { isTerminal, type Output } from '../io.js';

/**
 * Progress of a long transfer on stderr: on a terminal a line at most about
 * once a second while it runs; in a pipe or a log only the milestones
 * (started, done), so a script's log does not fill with counters. --quiet
 * silences both.
 */
export interface Progress {
  /** While it runs: shown on a terminal, at most once per interval. */
  tick(text: string): void;
  /** A milestone: always shown (unless --quiet). */
  step(text: string): void;
}

export const PROGRESS_INTERVAL_MS = 1_000;

export function progressOn(out: Output, now: () => number = Date.now): Progress {
  const live = isTerminal(out.io.stderr);
  let last = Number.NEGATIVE_INFINITY;
  return {
    tick(text) {
      if (!live || now() - last < PROGRESS_INTERVAL_MS) return;
      last = now();
      out.progress(text);
    },
    step(text) {
      last = now();
      out.progress(text);
    },
  };
}

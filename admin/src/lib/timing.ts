import { useLayoutEffect, useRef } from 'react';

/**
 * Render timings of the heavy screens (entry list, entry editor): the time
 * from the data arriving to the first paint-ready commit that shows it, kept
 * as performance measures (visible in the browser's performance panel) and in
 * `window.__cmsTimings` for the browser tests that watch the budget.
 */
declare global {
  interface Window {
    __cmsTimings?: Record<string, number[]>;
  }
}

export function markDataArrived(name: string): void {
  performance.mark(`${name}:data`);
}

/** `from` names the data mark when it differs from the measure (a part of a screen measured on its own). */
export function useRenderTiming(name: string, ready: boolean, from = name): void {
  const done = useRef(false);
  useLayoutEffect(() => {
    if (!ready || done.current) return;
    if (performance.getEntriesByName(`${from}:data`, 'mark').length === 0) return;
    done.current = true;
    const m = performance.measure(name, `${from}:data`);
    const all = window.__cmsTimings ?? {};
    all[name] = [...(all[name] ?? []), m.duration];
    window.__cmsTimings = all;
  });
}

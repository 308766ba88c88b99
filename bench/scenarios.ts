import type { SeedContext } from './seed.js';

/** A request to load, resolved after setup; the harness adds `Authorization: Bearer <admin PAT>` unless anonymous. */
export interface BenchRequest {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Send no Authorization header (the anonymous published-read path). */
  anonymous?: boolean;
}

export interface Scenario extends BenchRequest {
  /**
   * Runs once in the process that hosts the servers, after the base seed and before any load.
   * Create what the scenario needs through `ctx.cms.services`, copy the rows the baseline serves
   * with `ctx.mirror([...tables])`, and return overrides for the request (e.g. a path holding a
   * created id).
   */
  setup?: (ctx: SeedContext) => Promise<Partial<BenchRequest> | undefined>;
}

/**
 * Every scenario runs against the service and against the bare baseline (bench/baseline.ts must
 * answer the same method and path with the same JSON).
 */
export const scenarios: Scenario[] = [
  { name: 'listCollections', method: 'GET', path: '/_cms/api/schema/collections' },
  { name: 'getCollection', method: 'GET', path: '/_cms/api/schema/collections/posts' },
];

/** Scenarios picked by BENCH_FILTER (a substring of the name; comma-separated for several). */
export function selectScenarios(filter = process.env.BENCH_FILTER): Scenario[] {
  const wanted = (filter ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const picked = wanted.length
    ? scenarios.filter((s) => wanted.some((w) => s.name.toLowerCase().includes(w)))
    : scenarios;
  if (!picked.length) throw new Error(`BENCH_FILTER="${filter}" matches no scenario`);
  return picked;
}

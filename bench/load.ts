import autocannon from 'autocannon';
import type { BenchRequest } from './scenarios.js';

export interface LoadSettings {
  /** Measured seconds per scenario and server. */
  duration: number;
  connections: number;
  /** Seconds of unmeasured load first (JIT, caches, connection set-up). */
  warmup: number;
}

export interface LoadResult {
  /** Mean of autocannon's per-second samples. */
  reqPerSec: number;
  /** Latency percentiles in ms, from every response's own timing (autocannon's histogram rounds to whole ms). */
  p50: number;
  p99: number;
  requests: number;
  durationSec: number;
  /**
   * CPU time of this process during the measured run, in cores (1 = one core busy). With the
   * servers in a child process this is the load generator alone: near 1 it is the bottleneck.
   */
  benchCpu: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

function headersFor(request: BenchRequest, token: string): Record<string, string> {
  const headers: Record<string, string> = request.anonymous ? {} : { authorization: `Bearer ${token}` };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return { ...headers, ...request.headers };
}

/** One request before any load: it must succeed, and its JSON is returned for the equivalence check. */
export async function probe(baseUrl: string, request: BenchRequest, token: string): Promise<unknown> {
  const res = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: headersFor(request, token),
    body: request.body,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${request.name}: ${request.method} ${baseUrl}${request.path} → ${res.status} ${text}`);
  return JSON.parse(text);
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function fire(baseUrl: string, request: BenchRequest, token: string, duration: number, connections: number) {
  const latencies: number[] = [];
  const instance = autocannon({
    url: baseUrl + request.path,
    method: request.method,
    headers: headersFor(request, token),
    body: request.body,
    connections,
    duration,
    title: request.name,
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
  });
  const result = await instance;
  return { result, latencies: Float64Array.from(latencies).sort() };
}

/** Warm up, then measure one request against one server. Throws when any request failed. */
export async function load(
  baseUrl: string,
  request: BenchRequest,
  token: string,
  settings: LoadSettings,
): Promise<LoadResult> {
  if (settings.warmup > 0) {
    const { result } = await fire(baseUrl, request, token, settings.warmup, settings.connections);
    assertClean(request, baseUrl, result);
  }
  const cpuBefore = process.cpuUsage();
  const { result, latencies } = await fire(baseUrl, request, token, settings.duration, settings.connections);
  const cpu = process.cpuUsage(cpuBefore);
  assertClean(request, baseUrl, result);
  return {
    reqPerSec: result.requests.average,
    p50: round3(percentile(latencies, 50)),
    p99: round3(percentile(latencies, 99)),
    requests: result.requests.total,
    durationSec: result.duration,
    benchCpu: Math.round((cpu.user + cpu.system) / 1e4 / result.duration) / 100,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Several rounds of the same load as one result: medians of the rates and latencies, sums of the counts. */
export function combine(rounds: LoadResult[]): LoadResult {
  if (rounds.length === 1) return rounds[0];
  const med = (pick: (r: LoadResult) => number) => round3(median(rounds.map(pick)));
  const sum = (pick: (r: LoadResult) => number) => rounds.reduce((n, r) => n + pick(r), 0);
  const statusCodes: Record<string, number> = {};
  for (const r of rounds) {
    for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  }
  return {
    reqPerSec: med((r) => r.reqPerSec),
    p50: med((r) => r.p50),
    p99: med((r) => r.p99),
    requests: sum((r) => r.requests),
    durationSec: round3(sum((r) => r.durationSec)),
    benchCpu: med((r) => r.benchCpu),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    statusCodes,
  };
}

function assertClean(request: BenchRequest, baseUrl: string, r: autocannon.Result): void {
  const failed = r.errors + r.timeouts + r.non2xx + r.mismatches;
  if (failed === 0 && r.requests.total > 0) return;
  const codes = Object.entries(r.statusCodeStats)
    .map(([code, s]) => `${code}×${s.count}`)
    .join(' ');
  throw new Error(
    `${request.name} against ${baseUrl}: ${r.requests.total} responses, ${r.errors} errors, ` +
      `${r.timeouts} timeouts, ${r.non2xx} non-2xx (status ${codes || 'none'})`,
  );
}

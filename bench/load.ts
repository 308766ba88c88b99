import autocannon from 'autocannon';
import type { BenchRequest } from './scenarios.js';
import { nextUploadBody, prepareUploads } from './upload-body.js';

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
  /**
   * CPU time the server's process spent per request during the measured run, in µs: far less sensitive
   * than req/s to other work on the machine (null when the servers share this process).
   */
  serverCpuPerRequest: number | null;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

function headersFor(request: BenchRequest, token: string): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return { ...headers, ...request.headers };
}

/** Titles no other request of the whole run used (createContent): every create gets a fresh slug. */
let titleCounter = 0;

/**
 * The per-server state of a request's variation (bench/scenarios.ts `Vary`): pools are consumed and
 * counters advance per server; autocannon keeps a context object per connection.
 */
export class Variation {
  private taken = 0;

  constructor(private readonly request: BenchRequest) {}

  get readsResponses(): boolean {
    return this.request.vary?.kind === 'revChain';
  }

  /** Anything to prepare before the first request (the upload image is encoded once). */
  async prepare(): Promise<void> {
    if (this.request.vary?.kind === 'upload') await prepareUploads(this.request.vary.bytes);
  }

  next(context: Record<string, unknown>): { path: string; body?: string | Buffer } {
    const { vary, path, body } = this.request;
    if (!vary) return { path, body };
    if (vary.kind === 'upload') return { path, body: nextUploadBody() };
    if (vary.kind === 'uniqueTitle') {
      const parsed = JSON.parse(body ?? '{}') as { data: { title: string } };
      parsed.data.title = `${parsed.data.title} ${++titleCounter}`;
      return { path, body: JSON.stringify(parsed) };
    }
    if (vary.kind === 'pool') {
      if (this.taken >= vary.paths.length)
        throw new Error(`${this.request.name}: the pool of ${vary.paths.length} is used up`);
      return { path: vary.paths[this.taken++], body };
    }
    context.id ??= vary.ids[this.taken++ % vary.ids.length];
    const sent = JSON.parse(body ?? '{}') as Record<string, unknown>;
    if (context.rev) sent._rev = context.rev;
    return { path: vary.pathTemplate.replace('{id}', context.id as string), body: JSON.stringify(sent) };
  }

  /** revChain: the next request of this connection sends back the `_rev` this response carried. */
  seen(body: string, context: Record<string, unknown>): void {
    try {
      context.rev = (JSON.parse(body) as { data?: { _rev?: string } }).data?._rev;
    } catch {
      context.rev = undefined;
    }
  }
}

/** One request before any load: it must succeed, and its JSON is returned for the equivalence check. */
export async function probe(
  baseUrl: string,
  request: BenchRequest,
  token: string,
  variation: Variation,
): Promise<unknown> {
  await variation.prepare();
  const { path, body } = variation.next({});
  const res = await fetch(baseUrl + path, {
    method: request.method,
    headers: headersFor(request, token),
    body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${request.name}: ${request.method} ${baseUrl}${path} → ${res.status} ${text}`);
  return JSON.parse(text);
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Span {
  duration?: number;
  amount?: number;
}

async function fire(
  baseUrl: string,
  request: BenchRequest,
  token: string,
  span: Span,
  connections: number,
  variation: Variation,
) {
  const latencies: number[] = [];
  const headers = headersFor(request, token);
  const instance = autocannon({
    url: baseUrl,
    connections,
    ...(span.amount ? { amount: span.amount } : { duration: span.duration }),
    title: request.name,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers,
        body: request.body,
        setupRequest: (req, context) => ({ ...req, ...variation.next(context) }),
        ...(variation.readsResponses
          ? {
              onResponse: (_status: number, body: string, context: Record<string, unknown>) =>
                variation.seen(body, context),
            }
          : {}),
      },
    ],
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
  variation: Variation,
  serverCpu: () => Promise<number | null>,
): Promise<LoadResult> {
  const measured: Span = request.amount ? { amount: request.amount } : { duration: settings.duration };
  if (settings.warmup > 0) {
    const warm: Span = request.amount ? { amount: Math.round(request.amount / 5) } : { duration: settings.warmup };
    const { result } = await fire(baseUrl, request, token, warm, settings.connections, variation);
    assertClean(request, baseUrl, result);
  }
  const cpuBefore = process.cpuUsage();
  const serverBefore = await serverCpu();
  const { result, latencies } = await fire(baseUrl, request, token, measured, settings.connections, variation);
  const serverAfter = await serverCpu();
  const cpu = process.cpuUsage(cpuBefore);
  assertClean(request, baseUrl, result);
  // With a fixed amount, autocannon's per-second samples include a partial last second: count instead.
  const reqPerSec = request.amount ? result.requests.total / result.duration : result.requests.average;
  return {
    reqPerSec,
    p50: round3(percentile(latencies, 50)),
    p99: round3(percentile(latencies, 99)),
    requests: result.requests.total,
    durationSec: result.duration,
    benchCpu: Math.round((cpu.user + cpu.system) / 1e4 / result.duration) / 100,
    serverCpuPerRequest:
      serverBefore === null || serverAfter === null || !result.requests.total
        ? null
        : Math.round((serverAfter - serverBefore) / result.requests.total),
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
    serverCpuPerRequest: rounds.some((r) => r.serverCpuPerRequest === null)
      ? null
      : med((r) => r.serverCpuPerRequest as number),
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

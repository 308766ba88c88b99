import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { combine, type LoadResult, type LoadSettings } from './load.js';
import type { BenchRequest } from './scenarios.js';

export interface ScenarioResult {
  name: string;
  method: string;
  path: string;
  /** Medians over the rounds. */
  service: LoadResult;
  baseline: LoadResult;
  /** service ÷ baseline: below 1 for req/s and above 1 for p99 mean the service is slower. */
  ratio: { reqPerSec: number; p99: number; cpuPerRequest: number | null };
  rounds: { service: LoadResult[]; baseline: LoadResult[] };
}

export interface Report {
  startedAt: string;
  node: string;
  platform: string;
  cpus: number;
  db: string;
  mode: string;
  settings: LoadSettings & { rounds: number };
  /** os.loadavg() before and after: other work on the machine makes the numbers noisy. */
  loadAvg: { before: number[]; after: number[] };
  scenarios: ScenarioResult[];
  /** Memory of each server's process after the run (one process for both when `shared`). */
  memory: { service: Memory; baseline: Memory; shared: boolean } | null;
}

interface Memory {
  rss: number;
  heapUsed: number;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export function scenarioResult(
  request: BenchRequest,
  serviceRounds: LoadResult[],
  baselineRounds: LoadResult[],
): ScenarioResult {
  const service = combine(serviceRounds);
  const baseline = combine(baselineRounds);
  return {
    name: request.name,
    method: request.method,
    path: request.path,
    service,
    baseline,
    ratio: {
      reqPerSec: round(service.reqPerSec / baseline.reqPerSec),
      p99: round(service.p99 / baseline.p99),
      // Inverted so that, like req/s, below 1 means the service does less per CPU second.
      cpuPerRequest:
        service.serverCpuPerRequest && baseline.serverCpuPerRequest
          ? round(baseline.serverCpuPerRequest / service.serverCpuPerRequest)
          : null,
    },
    rounds: { service: serviceRounds, baseline: baselineRounds },
  };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A plain text table: one line for the service and one for the baseline per scenario, ratios on the first. */
export function formatTable(report: Report): string {
  const header = [
    'scenario',
    'server',
    'req/s',
    'p50 ms',
    'p99 ms',
    'cpu µs/req',
    'req/s ratio',
    'p99 ratio',
    'cpu ratio',
  ];
  const rows: string[][] = [];
  for (const s of report.scenarios) {
    const line = (server: string, r: LoadResult) => [
      server === 'service' ? s.name : '',
      server,
      Math.round(r.reqPerSec).toString(),
      r.p50.toFixed(2),
      r.p99.toFixed(2),
      r.serverCpuPerRequest === null ? '-' : String(r.serverCpuPerRequest),
    ];
    rows.push([
      ...line('service', s.service),
      s.ratio.reqPerSec.toFixed(2),
      s.ratio.p99.toFixed(2),
      s.ratio.cpuPerRequest === null ? '-' : s.ratio.cpuPerRequest.toFixed(2),
    ]);
    rows.push([...line('baseline', s.baseline), '', '', '']);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  const { connections, duration, warmup, rounds } = report.settings;
  const title =
    `${report.db}, ${report.mode}, ${connections} connections, ${duration}s per run after ${warmup}s warm-up` +
    `${rounds > 1 ? `, median of ${rounds} rounds` : ''}, node ${report.node}, ${report.cpus} CPUs; ` +
    'ratio = service / baseline (cpu ratio = baseline CPU per request / service CPU per request)';
  const memory = report.memory
    ? report.memory.shared
      ? `memory after the run (one process for both servers and the load): rss ${mb(report.memory.service.rss)}`
      : `memory after the run: service rss ${mb(report.memory.service.rss)} (heap ${mb(report.memory.service.heapUsed)}), ` +
        `baseline rss ${mb(report.memory.baseline.rss)}`
    : '';
  return [title, fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt), '', memory].join('\n');
}

export function writeJson(file: string, report: Report): void {
  mkdirSync(dirname(file), { recursive: true });
  // Arrays of numbers on one line, as Biome formats them, so `biome check` passes on the results too.
  const text = JSON.stringify(report, null, 2).replace(
    /\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g,
    (_, list: string) => `[${list.split(/,\s*/).join(', ')}]`,
  );
  writeFileSync(file, `${text}\n`);
}

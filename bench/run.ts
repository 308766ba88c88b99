/**
 * `npm run bench`: the service against a bare Hono + SQLite baseline, same requests, same load.
 *
 * Process layout: the service and the baseline run in a forked child process (bench/target-process.ts)
 * and autocannon runs here. Measured on the 2-vCPU dev machine (getCollection, 10 connections, 5 s,
 * four interleaved runs of each layout): the load generator alone uses 0.11–0.24 of a core
 * (`benchCpu` in the results), so in one process it takes some 15–25 % of the servers' event loop.
 * That cost lands on both sides: the baseline fell from 6.6–7.0k req/s (quiet child-process runs) to
 * 5.5k, latencies include time spent generating load, and the fixed extra work per request pulls the
 * ratio towards 1. In-process runs were steadier on the shared machine (others' builds compete for the
 * second core), which is why BENCH_ROUNDS takes medians and the run warns when the load average is
 * high. BENCH_INPROCESS=1 (the default on one core) keeps everything in one process, e.g. for
 * `--cpu-prof`.
 */

import { deepStrictEqual } from 'node:assert';
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type LoadResult, type LoadSettings, load, probe } from './load.js';
import { formatTable, type Report, scenarioResult, writeJson } from './report.js';
import { type BenchRequest, selectScenarios } from './scenarios.js';
import { type DbKind, startTarget, type TargetInfo } from './target.js';
import type { ChildMessage } from './target-process.js';

const RESULTS_FILE = fileURLToPath(new URL('./results/latest.json', import.meta.url));

function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min}, got "${raw}"`);
  return n;
}

function dbFromEnv(): DbKind {
  const db = process.env.BENCH_DB ?? 'sqlite';
  if (db !== 'sqlite' && db !== 'postgres') throw new Error(`BENCH_DB must be "sqlite" or "postgres", got "${db}"`);
  return db;
}

interface RunningTarget extends TargetInfo {
  close(): Promise<void>;
}

/** Fork bench/target-process.ts (the tsx loader is inherited through process.execArgv) and wait until it is ready. */
function startChildTarget(): Promise<RunningTarget> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./target-process.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
  };
  return new Promise((resolve, reject) => {
    child.once('message', (m: ChildMessage) => {
      if (m.type === 'ready') resolve({ ...m.info, close });
      else reject(new Error(`target process failed to start:\n${m.message}`));
    });
    child.once('exit', (code) => reject(new Error(`target process exited early (code ${code})`)));
  });
}

/** Replace the values of volatile keys (anywhere in the tree) so only the shape and stable values are compared. */
function mask(value: unknown, keys: string[] | undefined): unknown {
  if (!keys?.length || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => mask(v, keys));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      keys.includes(k) ? '<volatile>' : mask(v, keys),
    ]),
  );
}

/** Both servers must answer every request with the same JSON, or the comparison means nothing. */
async function checkEquivalent(target: RunningTarget, request: BenchRequest): Promise<void> {
  const [fromService, fromBaseline] = await Promise.all([
    probe(target.serviceUrl, request, target.token),
    probe(target.baselineUrl, request, target.token),
  ]);
  try {
    deepStrictEqual(mask(fromBaseline, request.volatile), mask(fromService, request.volatile));
  } catch (err) {
    throw new Error(`${request.name}: the baseline's response differs from the service's\n${(err as Error).message}`);
  }
}

/** Rounds alternate between the servers so a burst of other work on the machine hits both alike. */
async function measure(target: RunningTarget, request: BenchRequest, settings: LoadSettings, rounds: number) {
  process.stdout.write(`bench: ${request.name} (service vs baseline req/s):`);
  const service: LoadResult[] = [];
  const baseline: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    service.push(await load(target.serviceUrl, request, target.token, settings));
    baseline.push(await load(target.baselineUrl, request, target.token, settings));
    process.stdout.write(` ${Math.round(service[round].reqPerSec)} vs ${Math.round(baseline[round].reqPerSec)}`);
  }
  process.stdout.write('\n');
  return scenarioResult(request, service, baseline);
}

async function main(): Promise<void> {
  const settings: LoadSettings = {
    duration: numberFromEnv('BENCH_DURATION', 5, 1),
    connections: Math.round(numberFromEnv('BENCH_CONNECTIONS', 10, 1)),
    warmup: numberFromEnv('BENCH_WARMUP', 1, 0),
  };
  const rounds = Math.round(numberFromEnv('BENCH_ROUNDS', 1, 1));
  const db = dbFromEnv();
  const cores = availableParallelism();
  // With one core a second process buys nothing: everything shares that core either way.
  const inProcess = (process.env.BENCH_INPROCESS ?? (cores < 2 ? '1' : '0')) === '1';
  const scenarios = selectScenarios();
  const report: Report = {
    startedAt: new Date().toISOString(),
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
    cpus: cores,
    db,
    mode: inProcess ? 'in-process' : 'child-process',
    settings: { ...settings, rounds },
    loadAvg: { before: loadavg(), after: [] },
    scenarios: [],
  };
  if (report.loadAvg.before[0] > cores / 2) {
    console.warn(`bench: load average ${report.loadAvg.before[0].toFixed(2)} on ${cores} CPUs: expect noisy numbers`);
  }

  console.log(`bench: starting the service and the baseline (${db}, ${report.mode})`);
  const target = inProcess ? await startTarget(db, scenarios) : await startChildTarget();
  const stopOnSignal = () => {
    void target.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    for (const request of target.requests) await checkEquivalent(target, request);
    for (const request of target.requests) report.scenarios.push(await measure(target, request, settings, rounds));
    report.loadAvg.after = loadavg();
  } finally {
    await target.close();
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }
  console.log(`\n${formatTable(report)}\n`);
  writeJson(RESULTS_FILE, report);
  console.log(`bench: results written to ${RESULTS_FILE}`);
}

main().catch((err) => {
  console.error(`\nbench FAILED: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
});

/**
 * `npm run bench`: the service against a bare Hono + SQLite baseline, same requests, same load.
 *
 * Process layout. By default the service and the baseline run in a forked child process and
 * autocannon runs here. Measured on the 2-CPU dev machine (listCollections, 10 connections):
 * with autocannon in the same process as the servers, both numbers drop because the load
 * generator takes roughly half of the one event loop, and the ratio is pulled towards 1 (the
 * generator's fixed cost per request hides the difference between the servers). With the servers
 * in their own process, each side gets a core and the ratio reflects the servers alone.
 * BENCH_INPROCESS=1 keeps everything in one process (easier to profile with --cpu-prof).
 * See bench/README.md for the numbers and the environment variables.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { deepStrictEqual } from 'node:assert';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type LoadResult, type LoadSettings, load, probe } from './load.js';
import { formatTable, type Report, scenarioResult, writeJson } from './report.js';
import { selectScenarios } from './scenarios.js';
import type { ChildMessage } from './target-process.js';
import { type DbKind, startTarget, type TargetInfo } from './target.js';

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

async function main(): Promise<void> {
  const settings: LoadSettings = {
    duration: numberFromEnv('BENCH_DURATION', 5, 1),
    connections: Math.round(numberFromEnv('BENCH_CONNECTIONS', 10, 1)),
    warmup: numberFromEnv('BENCH_WARMUP', 1, 0),
  };
  const db = dbFromEnv();
  const inProcess = process.env.BENCH_INPROCESS === '1';
  const scenarios = selectScenarios();

  console.log(`bench: starting the service and the baseline (${db}, ${inProcess ? 'in-process' : 'child process'})`);
  const target = inProcess ? await startTarget(db, scenarios) : await startChildTarget();
  const stopOnSignal = () => {
    void target.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    const report: Report = {
      startedAt: new Date().toISOString(),
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      db,
      mode: inProcess ? 'in-process' : 'child-process',
      settings,
      scenarios: [],
    };
    for (const request of target.requests) {
      // Both servers must answer the same JSON, or the comparison means nothing.
      const [fromService, fromBaseline] = await Promise.all([
        probe(target.serviceUrl, request, target.token),
        probe(target.baselineUrl, request, target.token),
      ]);
      try {
        deepStrictEqual(fromBaseline, fromService);
      } catch (err) {
        throw new Error(`${request.name}: the baseline's response differs from the service's\n${(err as Error).message}`);
      }
      process.stdout.write(`bench: ${request.name} … `);
      const service: LoadResult = await load(target.serviceUrl, request, target.token, settings);
      const baseline: LoadResult = await load(target.baselineUrl, request, target.token, settings);
      report.scenarios.push(scenarioResult(request, service, baseline));
      console.log(`${Math.round(service.reqPerSec)} vs ${Math.round(baseline.reqPerSec)} req/s`);
    }
    console.log(`\n${formatTable(report)}\n`);
    writeJson(RESULTS_FILE, report);
    console.log(`bench: results written to ${RESULTS_FILE}`);
  } finally {
    await target.close();
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }
}

main().catch((err) => {
  console.error(`\nbench FAILED: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
});

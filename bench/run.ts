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
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type LoadResult, type LoadSettings, load, probe, Variation } from './load.js';
import { formatTable, type Report, scenarioResult, writeJson } from './report.js';
import { type BenchRequest, selectScenarios } from './scenarios.js';
import {
  type DbKind,
  discardService,
  type PreparedService,
  type ServiceInfo,
  startBaseline,
  startService,
} from './target.js';
import type { ChildMessage, ParentMessage } from './target-process.js';

const RESULTS_FILE = fileURLToPath(
  new URL(`./results/latest${process.env.BENCH_DB === 'postgres' ? '-postgres' : ''}.json`, import.meta.url),
);

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

interface Server {
  url: string;
  /** CPU time the serving process has used so far, in µs (null when it shares this process). */
  cpu(): Promise<number | null>;
  /** Resident and heap memory of the process serving, in bytes. */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  close(): Promise<void>;
}

/**
 * The servers run as plain JavaScript, as in production: bench/target-process.ts and the sources it
 * imports are bundled once per run (packages stay external), so neither the TypeScript loader's memory
 * (about 50 MB) nor its work is measured.
 */
async function bundleChild(): Promise<string> {
  const outfile = fileURLToPath(new URL('./.build/target-process.mjs', import.meta.url));
  await build({
    entryPoints: [fileURLToPath(new URL('./target-process.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * Node flags of the server processes: those `npm start` gives the server (package.json's start script,
 * the one place they are set; docs/operations.md says why), or BENCH_NODE_FLAGS to try others.
 */
function nodeFlags(): string[] {
  if (process.env.BENCH_NODE_FLAGS !== undefined) return process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean);
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'));
  return String(pkg.scripts.start)
    .split(' ')
    .filter((word) => word.startsWith('--'));
}

/** Fork the bundled target process and start one server in it. */
function startChild(entry: string, start: ParentMessage): Promise<Server & { service?: ServiceInfo }> {
  const child: ChildProcess = fork(entry, { execArgv: nodeFlags(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.send({ type: 'close' } satisfies ParentMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const ask = <T extends ChildMessage['type']>(type: T & ParentMessage['type']) =>
    new Promise<Extract<ChildMessage, { type: T }>>((resolve) => {
      const onMessage = (m: ChildMessage) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        resolve(m as Extract<ChildMessage, { type: T }>);
      };
      child.on('message', onMessage);
      child.send({ type } as ParentMessage);
    });
  const memory = async () => {
    const { rss, heapUsed } = await ask('memory');
    return { rss, heapUsed };
  };
  const cpu = async () => (await ask('cpu')).micros;
  return new Promise((resolve, reject) => {
    child.once('message', (m: ChildMessage) => {
      if (m.type === 'ready') resolve({ url: m.url, service: m.service, memory, cpu, close });
      else if (m.type === 'failed') reject(new Error(`target process failed to start:\n${m.message}`));
    });
    child.once('exit', (code) => reject(new Error(`target process exited early (code ${code})`)));
    child.send(start);
  });
}

/** Fork a child that seeds the data and exits, leaving the data for the serving child. */
function seedInChild(entry: string, db: DbKind, rounds: number): Promise<PreparedService> {
  const child: ChildProcess = fork(entry, { execArgv: nodeFlags(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let prepared: PreparedService | undefined;
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'seeded') {
        prepared = m.prepared;
        child.send({ type: 'close' } satisfies ParentMessage);
      } else if (m.type === 'failed') reject(new Error(`seeding process failed:\n${m.message}`));
    });
    child.once('exit', (code) =>
      prepared ? resolve(prepared) : reject(new Error(`seeding process exited early (code ${code})`)),
    );
    child.send({ type: 'start', role: 'seed', db, rounds } satisfies ParentMessage);
  });
}

/** In one process the servers' CPU time cannot be told apart (nor from the load generator's). */
const noCpu = async () => null;

const ownMemory = async () => {
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
};

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

interface Pair {
  service: Server;
  baseline: Server;
  info: ServiceInfo;
}

/** Both servers must answer every request with the same JSON, or the comparison means nothing. */
async function checkEquivalent(pair: Pair, request: BenchRequest, variations: [Variation, Variation]): Promise<void> {
  const token = pair.info.tokens[request.as];
  const [fromService, fromBaseline] = await Promise.all([
    probe(pair.service.url, request, token, variations[0]),
    probe(pair.baseline.url, request, token, variations[1]),
  ]);
  try {
    deepStrictEqual(mask(fromBaseline, request.volatile), mask(fromService, request.volatile));
  } catch (err) {
    throw new Error(`${request.name}: the baseline's response differs from the service's\n${(err as Error).message}`);
  }
}

/** Rounds alternate between the servers so a burst of other work on the machine hits both alike. */
async function measure(pair: Pair, request: BenchRequest, settings: LoadSettings, rounds: number) {
  process.stdout.write(`bench: ${request.name} (service vs baseline req/s):`);
  const variations: [Variation, Variation] = [new Variation(request), new Variation(request)];
  await checkEquivalent(pair, request, variations);
  const token = pair.info.tokens[request.as];
  const service: LoadResult[] = [];
  const baseline: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    service.push(await load(pair.service.url, request, token, settings, variations[0], pair.service.cpu));
    baseline.push(await load(pair.baseline.url, request, token, settings, variations[1], pair.baseline.cpu));
    process.stdout.write(` ${Math.round(service[round].reqPerSec)} vs ${Math.round(baseline[round].reqPerSec)}`);
  }
  process.stdout.write('\n');
  return scenarioResult(request, service, baseline);
}

async function startPair(db: DbKind, rounds: number, inProcess: boolean): Promise<Pair> {
  if (inProcess) {
    const { close, ...info } = await startService(db, selectScenarios(), { rounds });
    const service: Server = { url: info.url, memory: ownMemory, cpu: noCpu, close };
    try {
      const baseline = await startBaseline(info);
      return { service, baseline: { ...baseline, memory: ownMemory, cpu: noCpu }, info };
    } catch (err) {
      await close();
      throw err;
    }
  }
  const entry = await bundleChild();
  // The data is made in a process of its own: the serving process starts on existing data, as in
  // production, so its memory after the load is that of serving.
  const prepared = await seedInChild(entry, db, rounds);
  let service: Server & { service?: ServiceInfo };
  try {
    service = await startChild(entry, { type: 'start', role: 'service', prepared });
  } catch (err) {
    await discardService(prepared);
    throw err;
  }
  const info = service.service as ServiceInfo;
  try {
    return { service, baseline: await startChild(entry, { type: 'start', role: 'baseline', service: info }), info };
  } catch (err) {
    await service.close();
    throw err;
  }
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
    memory: null,
  };
  if (report.loadAvg.before[0] > cores / 2) {
    console.warn(`bench: load average ${report.loadAvg.before[0].toFixed(2)} on ${cores} CPUs: expect noisy numbers`);
  }

  console.log(`bench: seeding the service and copying its tables to the baseline (${db}, ${report.mode})`);
  const pair = await startPair(db, rounds, inProcess);
  const stopOnSignal = () => {
    void Promise.all([pair.service.close(), pair.baseline.close()]).finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    for (const request of pair.info.requests) report.scenarios.push(await measure(pair, request, settings, rounds));
    report.loadAvg.after = loadavg();
    const [service, baseline] = await Promise.all([pair.service.memory(), pair.baseline.memory()]);
    report.memory = { service, baseline, shared: inProcess };
  } finally {
    await Promise.all([pair.service.close(), pair.baseline.close()]);
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

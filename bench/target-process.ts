/**
 * Child-process entry (forked by bench/run.ts): hosts either the service or the baseline, so the load
 * generator in the parent shares neither's event loop and the service's memory can be read alone.
 * Protocol over IPC:
 *   parent → child  { type: 'start', role: 'seed', db, rounds }  (make the data, then exit on close)
 *                 | { type: 'start', role: 'service', prepared } | { type: 'start', role: 'baseline', service }
 *   child → parent  { type: 'seeded', prepared } | { type: 'ready', url, service? } | { type: 'failed', message }
 *   parent → child  { type: 'memory' } → child { type: 'memory', rss, heapUsed }
 *   parent → child  { type: 'cpu' } → child { type: 'cpu', micros } (CPU time used so far)
 *   parent → child  { type: 'close' }  (the child cleans up and exits)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { selectScenarios } from './scenarios.js';
import {
  type DbKind,
  type PreparedService,
  prepareService,
  type Running,
  type ServiceInfo,
  serveService,
  startBaseline,
} from './target.js';

export type ParentMessage =
  | { type: 'start'; role: 'seed'; db: DbKind; rounds: number }
  | { type: 'start'; role: 'service'; prepared: PreparedService }
  | { type: 'start'; role: 'baseline'; service: ServiceInfo }
  | { type: 'memory' }
  | { type: 'cpu' }
  | { type: 'close' };

export type ChildMessage =
  | { type: 'seeded'; prepared: PreparedService }
  | { type: 'ready'; url: string; service?: ServiceInfo }
  | { type: 'failed'; message: string }
  | { type: 'memory'; rss: number; heapUsed: number }
  | { type: 'cpu'; micros: number };

const send = (message: ChildMessage, then?: () => void) => process.send?.(message, undefined, undefined, then);

let running: Running | null = null;
let closing = false;
/**
 * BENCH_PROFILE=DIR: a CPU profile of the serving process, from ready to close, written to DIR/<role>.cpuprofile.
 * BENCH_HEAP_PROFILE=DIR: a sampled profile of every allocation (garbage included) over the same span, to
 * DIR/<role>.heapprofile: what the garbage collector's share of a profile is made of. With
 * BENCH_HEAP_PROFILE_PROMOTED=1, only what outlived a young-generation collection (what scavenges copy
 * and promote, and what the old generation's collections then mark).
 */
const stopProfiling: (() => Promise<void>)[] = [];
const shutdown = async () => {
  if (closing) return;
  closing = true;
  for (const stop of stopProfiling) await stop();
  await running?.close();
  process.exit(0);
};

function profilingSession(dir: string): Session {
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  return session;
}

async function startProfiler(role: string): Promise<void> {
  const cpuDir = process.env.BENCH_PROFILE;
  if (cpuDir) {
    const session = profilingSession(cpuDir);
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    stopProfiling.push(async () => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(join(cpuDir, `${role}.cpuprofile`), JSON.stringify(profile));
    });
  }
  const heapDir = process.env.BENCH_HEAP_PROFILE;
  if (heapDir) {
    const session = profilingSession(heapDir);
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 16 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env.BENCH_HEAP_PROFILE_PROMOTED !== '1',
    });
    stopProfiling.push(async () => {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      writeFileSync(join(heapDir, `${role}.heapprofile`), JSON.stringify(profile));
    });
  }
}

process.on('message', async (m: ParentMessage) => {
  if (m.type === 'close') return void shutdown();
  if (m.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    return void send({ type: 'cpu', micros: user + system });
  }
  if (m.type === 'memory') {
    const { rss, heapUsed } = process.memoryUsage();
    return void send({ type: 'memory', rss, heapUsed });
  }
  try {
    if (m.role === 'seed') {
      send({ type: 'seeded', prepared: await prepareService(m.db, selectScenarios(), { rounds: m.rounds }) });
    } else if (m.role === 'service') {
      const { close, ...service } = await serveService(m.prepared);
      running = { close };
      await startProfiler('service');
      send({ type: 'ready', url: service.url, service });
    } else {
      const baseline = await startBaseline(m.service);
      running = baseline;
      await startProfiler('baseline');
      send({ type: 'ready', url: baseline.url });
    }
  } catch (err) {
    send({ type: 'failed', message: (err as Error).stack ?? String(err) }, () => process.exit(1));
  }
});
// The parent died without asking: do not leave temporary files or PostgreSQL schemas behind.
process.on('disconnect', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
// Ctrl-C reaches the whole process group; the parent answers it by sending 'close'.
process.on('SIGINT', () => {});

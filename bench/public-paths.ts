/**
 * `npm run bench:public`: the cost of the public side's hot paths (not part of `npm test`).
 *
 * Against the real service over loopback (in a child process, bench/public-target.ts) with
 * 1,000 redirect rules (700 exact, 200 prefix, 100 pattern), three loads of the same length:
 *
 * - baseline: `GET /_cms/nothing`, a 404 that takes the same app path but skips the redirect
 *   lookup and the 404 log;
 * - redirect: random paths answered by the rules (exact, prefix and pattern), 301;
 * - miss: unique random paths no rule answers: lookup, then a 404 recorded in the log.
 *
 * "Added" is the mean latency minus the baseline's. Then a flood of unique random 404 paths
 * (more than the log's bound) checks that the log keeps at most `notFoundLogLimit` rows and
 * that every miss is either kept or counted as evicted.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { PublicChildMessage } from './public-target.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 30_000);

function startChild(): Promise<{ child: ChildProcess; ready: Extract<PublicChildMessage, { type: 'ready' }> }> {
  const child = fork(fileURLToPath(new URL('./public-target.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench target exited with ${code}`)));
    child.once('message', (m: PublicChildMessage) => {
      if (m.type === 'ready') resolve({ child, ready: m });
    });
  });
}

function ask<T extends PublicChildMessage['type']>(child: ChildProcess, type: T) {
  return new Promise<Extract<PublicChildMessage, { type: T }>>((resolve) => {
    child.once('message', (m: PublicChildMessage) => resolve(m as Extract<PublicChildMessage, { type: T }>));
    child.send({ type });
  });
}

interface Run {
  name: string;
  reqPerSec: number;
  mean: number;
  p50: number;
  p99: number;
  requests: number;
  statusCodes: Record<string, number>;
}

async function run(
  name: string,
  url: string,
  nextPath: () => string,
  expectStatus: number,
  opts: { duration?: number; amount?: number } = {},
): Promise<Run> {
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? DURATION }),
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: nextPath() }) }],
  });
  instance.on('response', (_c, _s, _b, ms) => {
    latencies.push(ms);
  });
  const r = await instance;
  const codes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([c, s]) => [c, s.count]));
  const total = Object.values(codes).reduce((a, b) => a + b, 0);
  if (r.errors || r.timeouts || (codes[expectStatus] ?? 0) !== total) {
    throw new Error(`${name}: errors ${r.errors}, timeouts ${r.timeouts}, statuses ${JSON.stringify(codes)}`);
  }
  const sorted = Float64Array.from(latencies).sort();
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    name,
    reqPerSec: Math.round(r.requests.average),
    mean: round(mean),
    p50: round(pct(50)),
    p99: round(pct(99)),
    requests: total,
    statusCodes: codes,
  };
}

const { child, ready } = await startChild();
try {
  const { rules, url } = ready;
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const hitPath = () => {
    const r = Math.random();
    if (r < 0.7) return pick(rules.exact);
    if (r < 0.9) return pick(rules.prefix).replace('*', `page-${Math.floor(Math.random() * 1e6)}`);
    return pick(rules.pattern)
      .replace(':year', '2024')
      .replace(':slug', `post-${Math.floor(Math.random() * 1e6)}`);
  };
  let n = 0;
  const missPath = () => `/missing/${Date.now().toString(36)}-${++n}`;

  // Warm-up (JIT, connections), not reported.
  await run('warmup', url, () => '/_cms/nothing', 404, { duration: 1 });
  await run('warmup', url, hitPath, 301, { duration: 1 });
  const baseline = await run('baseline (404 under /_cms)', url, () => '/_cms/nothing', 404);
  const redirect = await run('redirect (1,000 rules)', url, hitPath, 301);
  const miss = await run('404 + log (1,000 rules)', url, missPath, 404);
  const before = await ask(child, 'stats');
  const flood = await run('flood of random 404s', url, missPath, 404, { amount: FLOOD });
  const after = await ask(child, 'stats');

  const added = (r: Run) => Math.round((r.mean - baseline.mean) * 1000) / 1000;
  console.log(`\nPublic paths, ${process.env.BENCH_DB ?? 'sqlite'}, ${CONNECTIONS} connections, ${DURATION} s each\n`);
  console.log('| load | req/s | mean ms | p50 ms | p99 ms | added ms/request |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of [baseline, redirect, miss]) {
    console.log(
      `| ${r.name} | ${r.reqPerSec} | ${r.mean} | ${r.p50} | ${r.p99} | ${r === baseline ? '—' : added(r)} |`,
    );
  }
  console.log(
    `\nIn process (no HTTP), ${ready.inProcess.calls} calls each: redirect lookup ${ready.inProcess.hitUs.toFixed(2)} µs, ` +
      `miss (lookup + log record) ${ready.inProcess.missUs.toFixed(2)} µs per request`,
  );
  // The flood is a fixed number of requests, so its misses must all be accounted for exactly.
  const floodSeen = after.totalHits + after.evictedHits - (before.totalHits + before.evictedHits);
  console.log(
    `\nFlood: ${flood.requests} unique random 404 paths at ${flood.reqPerSec} req/s → log rows ${after.rows} ` +
      `(bound ${after.limit}); the log counted ${floodSeen} of the ${flood.requests} misses (kept ${after.totalHits}, ` +
      `evicted ${after.evictedHits} in all)` +
      (after.dbBytes !== null ? `, database ${(after.dbBytes / 1048576).toFixed(1)} MiB` : '') +
      ` (before the flood: ${before.rows} rows)`,
  );
  const ok = after.rows <= after.limit && floodSeen === flood.requests && added(redirect) < 1 && added(miss) < 1;
  console.log(ok ? '\nOK: under 1 ms added per request; the log stayed within its bound.' : '\nFAILED a target.');
  process.exitCode = ok ? 0 : 1;
} finally {
  child.removeAllListeners('exit');
  child.send({ type: 'close' });
  await new Promise((r) => child.once('exit', r));
}

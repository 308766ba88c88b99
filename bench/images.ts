/**
 * `npm run bench:images`: responsive images (docs/media.md, "Responsive images").
 *
 * 1. **A cached derivative vs the plain file route.** The real service (SQLite, file-system
 *    storage, a temporary data dir) runs in a child process; autocannon in this process loads
 *    `GET /media/{id}/image?w=640&v=…` (made once before the load, then read from storage) and
 *    `GET /media/file/{storageKey}` of a library item holding exactly the derivative's bytes, in
 *    alternating rounds. Reported: requests/s of each (median of the rounds) and their ratio
 *    (goal ≥ 0.8).
 * 2. **The first transform of a 12-megapixel JPEG** (4000 × 3000, made with sharp): a fresh
 *    service process uploads it, then one `GET …/image?w=1920` (JPEG) and one `…&fm=avif` are
 *    timed from request to last byte, while the service samples its own RSS every 10 ms.
 *    Reported: seconds and peak RSS above the process's RSS before the first transform.
 *
 * BENCH_DURATION (seconds per round, default 8), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS
 * (default 10).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { createLogger } from '../src/core/log.js';
import { listen } from '../src/http/server.js';
import { createCms, resolveConfig } from '../src/index.js';

const MB = 1024 * 1024;
const duration = Number(process.env.BENCH_DURATION ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** A photo-like JPEG: smooth noise, so it compresses and resizes like a photograph. */
async function photo(width: number, height: number): Promise<Buffer> {
  const small = Buffer.alloc((width / 8) * (height / 8) * 3);
  let seed = 11;
  for (let i = 0; i < small.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    small[i] = (seed >> 16) & 0xff;
  }
  return sharp(small, { raw: { width: width / 8, height: height / 8, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .jpeg({ quality: 88 })
    .toBuffer();
}

type Msg =
  | { type: 'ready'; url: string; token: string }
  | { type: 'uploaded'; item: Record<string, any> }
  | { type: 'rss'; before: number; peak: number };

/** Child: the service, answering upload and RSS requests from the parent over IPC. */
async function serve(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-bench-images-'));
  const config = resolveConfig({
    dataDir,
    databaseUrl: `sqlite:${join(dataDir, 'cms.db')}`,
    logLevel: 'silent',
    imageTransformConcurrency: 1,
  });
  const cms = await createCms({ config, logger: createLogger('silent'), scheduler: false });
  const server = await listen(cms, 0, '127.0.0.1');
  const { user } = await cms.services.users.create(null, { email: 'images@example.com' });
  const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'images' });
  let before = 0;
  let peak = 0;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10).unref();
  const send = (m: Msg) => process.send?.(m);
  process.on('message', async (m: { type: string; bytes?: string; name?: string; type_?: string }) => {
    if (m.type === 'upload') {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from(m.bytes as string, 'base64')], { type: m.type_ }), m.name);
      const res = await fetch(`${server.url}/_cms/api/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const body = (await res.json()) as { data: { item: Record<string, unknown> } };
      if (res.status !== 201) throw new Error(`upload ${res.status} ${JSON.stringify(body)}`);
      send({ type: 'uploaded', item: body.data.item });
    } else if (m.type === 'mark') {
      global.gc?.();
      before = process.memoryUsage().rss;
      peak = before;
      send({ type: 'rss', before, peak });
    } else if (m.type === 'rss') {
      send({ type: 'rss', before, peak });
    } else if (m.type === 'stop') {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  send({ type: 'ready', url: server.url, token });
}

/** A URL the service made (with its configured public URL) pointed at where it listens. */
const at = (base: string, url: string) => {
  const u = new URL(url);
  return `${base}${u.pathname}${u.search}`;
};

/** A service child and a way to ask it things. */
async function startService() {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: 'inherit', execArgv: process.execArgv });
  const next = <T extends Msg['type']>(type: T) =>
    new Promise<Extract<Msg, { type: T }>>((resolve, reject) => {
      const on = (m: Msg) => {
        if (m.type !== type) return;
        child.off('message', on);
        resolve(m as Extract<Msg, { type: T }>);
      };
      child.on('message', on);
      child.once('exit', (code) => reject(new Error(`service exited (${code})`)));
    });
  const ready = await next('ready');
  return {
    url: ready.url,
    upload: async (bytes: Buffer, name: string, type: string) => {
      const done = next('uploaded');
      child.send({ type: 'upload', bytes: bytes.toString('base64'), name, type_: type });
      return (await done).item;
    },
    rss: async (type: 'mark' | 'rss') => {
      const done = next('rss');
      child.send({ type });
      return done;
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

async function rate(url: string): Promise<number> {
  const result = await autocannon({ url, connections, duration });
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  }
  return result.requests.average;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timed(url: string): Promise<{ seconds: number; bytes: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url);
  const bytes = (await res.arrayBuffer()).byteLength;
  return { seconds: (performance.now() - started) / 1000, bytes, status: res.status };
}

async function main(): Promise<void> {
  // 1. Cached derivative vs the file route.
  const svc = await startService();
  try {
    const source = await svc.upload(await photo(1600, 1200), 'source.jpg', 'image/jpeg');
    const derivativeCandidate = (source.srcsetCandidates as Array<{ width: number; url: string }>).find(
      (c) => c.width === 640,
    )?.url as string;
    const derivativeUrl = at(svc.url, derivativeCandidate);
    const made = await fetch(derivativeUrl);
    if (made.status !== 200) throw new Error(`derivative ${made.status}`);
    const bytes = Buffer.from(await made.arrayBuffer());
    const plain = await svc.upload(bytes, 'plain.jpg', 'image/jpeg');
    const fileUrl = at(svc.url, plain.immutableUrl as string);
    const check = await fetch(fileUrl);
    if (check.status !== 200 || Buffer.from(await check.arrayBuffer()).length !== bytes.length) {
      throw new Error('the file route does not serve the same bytes');
    }
    console.log(
      `same ${bytes.length}-byte JPEG (640 × 480) both ways; ${connections} connections, ${duration} s rounds`,
    );
    // Warm both up.
    await autocannon({ url: derivativeUrl, connections, duration: 2 });
    await autocannon({ url: fileUrl, connections, duration: 2 });
    const image: number[] = [];
    const file: number[] = [];
    for (let i = 0; i < rounds; i++) {
      image.push(await rate(derivativeUrl));
      file.push(await rate(fileUrl));
    }
    const [ri, rf] = [median(image), median(file)];
    console.log(`cached derivative  ${ri.toFixed(0)} req/s  (rounds: ${image.map((r) => r.toFixed(0)).join(', ')})`);
    console.log(`file route         ${rf.toFixed(0)} req/s  (rounds: ${file.map((r) => r.toFixed(0)).join(', ')})`);
    console.log(`ratio              ${(ri / rf).toFixed(2)} (goal ≥ 0.80)`);
  } finally {
    await svc.stop();
  }

  // 2. First transforms of a 12-megapixel JPEG, in a fresh process.
  const big = await photo(4000, 3000);
  const fresh = await startService();
  try {
    const item = await fresh.upload(big, 'twelve.jpg', 'image/jpeg');
    console.log(`\n12 MP JPEG: 4000 × 3000, ${(big.length / MB).toFixed(1)} MB`);
    for (const query of ['w=1920', 'w=1920&fm=webp', 'w=1920&fm=avif']) {
      const mark = await fresh.rss('mark');
      const first = await timed(`${fresh.url}/_cms/api/media/${item.id}/image?${query}`);
      if (first.status !== 200) throw new Error(`${query}: ${first.status}`);
      const { peak } = await fresh.rss('rss');
      const again = await timed(`${fresh.url}/_cms/api/media/${item.id}/image?${query}`);
      console.log(
        `${query.padEnd(16)} first ${first.seconds.toFixed(2)} s, ${(first.bytes / 1024).toFixed(0)} KiB; ` +
          `peak RSS ${(peak / MB).toFixed(0)} MB (+${((peak - mark.before) / MB).toFixed(0)} MB over ${(mark.before / MB).toFixed(0)} MB); ` +
          `stored copy ${(again.seconds * 1000).toFixed(1)} ms`,
      );
    }
  } finally {
    await fresh.stop();
  }
}

if (process.argv[2] === '--serve') await serve();
else await main();

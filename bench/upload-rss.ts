/**
 * `npx tsx bench/upload-rss.ts [MB …]`: the memory of the service while it
 * takes one large direct upload. The real service listens on loopback (SQLite,
 * file-system storage in a temporary data dir); a child process streams a
 * multipart body of the given size (generated on the fly, never held whole) and
 * the service process samples its own RSS every 20 ms. Flat means the peak
 * does not grow with the file: compare the sizes.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../src/core/log.js';
import { listen } from '../src/http/server.js';
import { createCms, resolveConfig } from '../src/index.js';

const MB = 1024 * 1024;
const BOUNDARY = '----cms-rss-boundary';

/** Child: send `size` bytes of a fake MP4 (an ftyp box, then filler) as the `file` part. */
async function send(url: string, token: string, size: number): Promise<void> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const ftyp = Buffer.from('00000018667479706d703432000000006d70343269736f6d', 'hex');
  const chunk = Buffer.alloc(256 * 1024);
  await new Promise<void>((resolve, reject) => {
    const req = request(`${url}/_cms/api/media`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`${res.statusCode} ${body}`))));
    });
    req.on('error', reject);
    let sent = 0;
    let n = 0;
    const write = () => {
      if (sent === 0) req.write(head);
      while (sent < size) {
        // Different filler in every chunk so the file is one of a kind.
        chunk.writeUInt32BE(n++, 0);
        const piece = sent === 0 ? Buffer.concat([ftyp, chunk.subarray(ftyp.length)]) : chunk;
        const part = piece.subarray(0, Math.min(piece.length, size - sent));
        sent += part.length;
        if (!req.write(part)) {
          req.once('drain', write);
          return;
        }
      }
      req.end(tail);
    };
    write();
  });
}

async function measure(sizes: number[]): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-rss-'));
  const config = resolveConfig({
    dataDir,
    databaseUrl: `sqlite:${join(dataDir, 'cms.db')}`,
    maxUploadSize: Math.max(...sizes) * MB + MB,
    logLevel: 'silent',
  });
  const cms = await createCms({ config, logger: createLogger('silent'), scheduler: false });
  const server = await listen(cms, 0, '127.0.0.1');
  try {
    const { user } = await cms.services.users.create(null, { email: 'rss@example.com' });
    const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'rss' });
    console.log('size MB  rss before MB  rss peak MB  peak - before MB  seconds');
    for (const size of sizes) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const timer = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const started = Date.now();
      const child = fork(fileURLToPath(import.meta.url), ['--send', server.url, token, String(size * MB)], {
        stdio: 'inherit',
      });
      const code = await new Promise<number | null>((done) => child.once('exit', done));
      clearInterval(timer);
      if (code !== 0) throw new Error(`upload of ${size} MB failed`);
      const mb = (n: number) => (n / MB).toFixed(1);
      console.log(
        `${String(size).padStart(7)}  ${mb(before).padStart(14)}  ${mb(peak).padStart(11)}  ${mb(peak - before).padStart(16)}  ${((Date.now() - started) / 1000).toFixed(1).padStart(7)}`,
      );
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--send') {
  await send(process.argv[3], process.argv[4], Number(process.argv[5]));
} else {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  await measure(sizes.length ? sizes : [20, 200]);
}

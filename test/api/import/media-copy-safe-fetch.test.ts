/**
 * safeFetch refuses private networks, bad redirects, oversize and slow downloads, and wrong file
 * types; the body streams to a staged file that no failure leaves behind.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/core/config.js';
import {
  FetchRefused,
  type SafeDownloadOptions,
  safeFetch,
  safeFetchBytes,
} from '../../../src/services/import/media-copy/safe-fetch.js';
import { discard } from '../../../src/services/media/staging.js';

let server: Server;
let base = '';
let png: Buffer;
const hosts: string[] = [];
const tmpDir = mkdtempSync(join(tmpdir(), 'cms-safe-fetch-'));
/** The endless body: bytes the server managed to send before the client hung up, and when it did. */
const endless = { sent: 0, closed: null as Promise<void> | null };
const ENDLESS_TOTAL = 256 * 1024 * 1024;

beforeAll(async () => {
  png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
  server = createServer((req, res) => {
    hosts.push(String(req.headers.host));
    switch (req.url) {
      case '/img.png':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
        return;
      case '/to-img':
        res.writeHead(302, { location: '/img.png' }).end();
        return;
      case '/to-metadata':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      case '/to-mapped':
        res.writeHead(301, { location: 'http://[::ffff:a9fe:a9fe]/' }).end();
        return;
      case '/to-name':
        res.writeHead(307, { location: 'http://metadata.internal.test/' }).end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      case '/declared-big':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': 10_000_000 });
        res.write(png);
        return; // never ends: the declared length alone must be refused
      case '/streamed-big':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png);
        res.write(Buffer.alloc(64 * 1024));
        res.end(Buffer.alloc(64 * 1024));
        return;
      case '/slow':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png.subarray(0, 8)); // then nothing more
        return;
      case '/endless': {
        // 256 MiB without a declared length, written only as fast as the client reads.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.concat([png, Buffer.alloc(64 * 1024 - png.length)]);
        endless.sent = 0;
        endless.closed = new Promise<void>((done) => res.once('close', () => done()));
        const pump = () => {
          while (endless.sent < ENDLESS_TOTAL && !res.destroyed) {
            endless.sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          if (!res.destroyed) res.end();
        };
        pump();
        return;
      }
      case '/page':
        res.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><html><body>hi</body></html>');
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(tmpDir, { recursive: true, force: true });
});

// Every case ends with nothing staged: a success's file is dropped by the case, a failure leaves none.
afterEach(() => {
  expect(readdirSync(tmpDir)).toEqual([]);
});

const opts = (o: Partial<SafeDownloadOptions> = {}): SafeDownloadOptions => ({
  allowPrivate: true,
  maxBytes: 100_000,
  timeoutMs: 2_000,
  allowedTypes: ['image/*'],
  tmpDir,
  ...o,
});

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchRefused);
  return (err as FetchRefused).reason;
}

describe('safeFetch', () => {
  it('downloads an allowed file, following a redirect, and sniffs its type', async () => {
    const r = await safeFetch(`${base}/to-img`, opts());
    expect(r.url).toBe(`${base}/img.png`);
    expect(r.mime).toBe('image/png');
    // The bytes are on disk, with their hashes computed on the way in.
    expect(readFileSync(r.file.path).equals(png)).toBe(true);
    expect(r.file.size).toBe(png.length);
    expect(r.file.sha1).toBe(`sha1:${createHash('sha1').update(png).digest('hex')}`);
    expect(r.file.hash).toBe(`sha256:${createHash('sha256').update(png).digest('hex')}`);
    await discard(r.file);
  });

  it('refuses loopback, private, mapped and link-local addresses when private hosts are not allowed', async () => {
    const off = opts({ allowPrivate: false });
    expect(await refusal(safeFetch(`${base}/img.png`, off))).toBe('PRIVATE_ADDRESS');
    for (const url of [
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://10.1.2.3/',
      'http://192.168.0.1/',
      'http://0.0.0.0/',
      'http://[fd00::1]/',
    ]) {
      expect(await refusal(safeFetch(url, off)), url).toBe('PRIVATE_ADDRESS');
    }
    // A public-looking name whose DNS answer includes a private address is refused as a whole.
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    expect(await refusal(safeFetch('http://mixed.test/a.png', { ...off, resolve }))).toBe('PRIVATE_ADDRESS');
  });

  it('never allows link-local (cloud metadata), even with private hosts allowed', async () => {
    expect(await refusal(safeFetch('http://169.254.169.254/', opts()))).toBe('PRIVATE_ADDRESS');
  });

  it('checks every redirect hop again', async () => {
    expect(await refusal(safeFetch(`${base}/to-metadata`, opts()))).toBe('PRIVATE_ADDRESS');
    expect(await refusal(safeFetch(`${base}/to-mapped`, opts()))).toBe('PRIVATE_ADDRESS');
    const resolve = async (h: string) =>
      h === 'metadata.internal.test' ? [{ address: '169.254.169.254', family: 4 }] : [];
    expect(await refusal(safeFetch(`${base}/to-name`, opts({ resolve })))).toBe('PRIVATE_ADDRESS');
    expect(await refusal(safeFetch(`${base}/loop`, opts()))).toBe('TOO_MANY_REDIRECTS');
  });

  it('connects to the address it vetted, not to a second DNS answer', async () => {
    let calls = 0;
    const port = new URL(base).port;
    const resolve = async () => {
      calls++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    // rebind.test exists in no DNS: the download works only through the vetted address.
    const r = await safeFetch(`http://rebind.test:${port}/img.png`, opts({ resolve }));
    expect(r.mime).toBe('image/png');
    await discard(r.file);
    expect(calls).toBe(1);
    expect(hosts).toContain(`rebind.test:${port}`);
  });

  it('refuses other schemes and credentials in the URL', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/a',
      'gopher://x/',
      'not a url',
      `http://user:pw@127.0.0.1/`,
    ]) {
      expect(await refusal(safeFetch(url, opts())), url).toBe('BAD_URL');
    }
  });

  it('refuses files over the size limit, declared or streamed', async () => {
    expect(await refusal(safeFetch(`${base}/declared-big`, opts()))).toBe('TOO_LARGE');
    expect(await refusal(safeFetch(`${base}/streamed-big`, opts()))).toBe('TOO_LARGE');
  });

  it('refuses an endless body once it passes the limit, without reading it to its end', async () => {
    const t0 = Date.now();
    expect(await refusal(safeFetch(`${base}/endless`, opts({ maxBytes: 1_000_000 })))).toBe('TOO_LARGE');
    // The connection was dropped: the server stopped writing far short of the 256 MiB it had.
    await endless.closed;
    expect(endless.sent).toBeLessThan(32 * 1024 * 1024);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('stops a download in flight when aborted, and leaves no partial file', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 150);
    expect(await refusal(safeFetch(`${base}/slow`, opts({ timeoutMs: 5_000, signal: stop.signal })))).toBe('ABORTED');
    const gone = new AbortController();
    gone.abort();
    expect(await refusal(safeFetch(`${base}/img.png`, opts({ signal: gone.signal })))).toBe('ABORTED');
  });

  it('reads a small document into memory within its limit (exporter JSON)', async () => {
    const r = await safeFetchBytes(`${base}/img.png`, opts());
    expect(r.bytes.equals(png)).toBe(true);
    expect(await refusal(safeFetchBytes(`${base}/streamed-big`, opts()))).toBe('TOO_LARGE');
  });

  it('gives up on a slow server at the deadline', async () => {
    const t0 = Date.now();
    expect(await refusal(safeFetch(`${base}/slow`, opts({ timeoutMs: 300 })))).toBe('TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('checks the bytes, not the claimed type, against what the media library accepts', async () => {
    expect(await refusal(safeFetch(`${base}/page`, opts()))).toBe('TYPE_NOT_ALLOWED');
    expect(await refusal(safeFetch(`${base}/missing.png`, opts()))).toBe('HTTP_STATUS');
  });

  it('reads CMS_IMPORT_ALLOW_PRIVATE_HOSTS through the configuration, off by default', () => {
    expect(resolveConfig({}).importAllowPrivateHosts).toBe(false);
    expect(resolveConfig({ importAllowPrivateHosts: '1' }).importAllowPrivateHosts).toBe(true);
    expect(resolveConfig({ importAllowPrivateHosts: '0' }).importAllowPrivateHosts).toBe(false);
  });
});

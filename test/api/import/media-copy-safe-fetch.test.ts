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
import { redirectTrust } from '../../../src/services/import/media-copy/redirects.js';
import {
  FetchRefused,
  type SafeDownloadOptions,
  safeFetch,
  safeFetchBytes,
} from '../../../src/services/import/media-copy/safe-fetch.js';
import { discard } from '../../../src/services/media/staging.js';
import { waitFor } from '../../helpers/wait.js';

let server: Server;
let base = '';
/** A second origin (another port on 127.0.0.1): where a hostile redirect sends the import. */
let other: Server;
let otherBase = '';
/** Request headers as each origin received them, by path. */
const seen: Array<{ origin: 'first' | 'other'; path: string; headers: Record<string, unknown> }> = [];
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
    seen.push({ origin: 'first', path: String(req.url), headers: { ...req.headers } });
    switch (req.url) {
      case '/seen':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
        return;
      case '/to-same':
        res.writeHead(302, { location: '/seen' }).end();
        return;
      case '/to-other':
        res.writeHead(302, { location: `${otherBase}/seen` }).end();
        return;
      case '/bounce':
        // To the other origin and straight back: what was dropped on the way out stays dropped.
        res.writeHead(307, { location: `${otherBase}/back` }).end();
        return;
      case '/to-file':
        res.writeHead(302, { location: 'file:///etc/passwd' }).end();
        return;
      case '/to-ftp':
        res.writeHead(301, { location: 'ftp://127.0.0.1/img.png' }).end();
        return;
      case '/to-userinfo':
        res.writeHead(302, { location: `http://user:pw@${new URL(base).host}/img.png` }).end();
        return;
      case '/bad-location':
        res.writeHead(302, { location: 'http://[' }).end();
        return;
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
      case '/silent':
        return; // the request is taken, and no answer ever comes
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
  other = createServer((req, res) => {
    seen.push({ origin: 'other', path: String(req.url), headers: { ...req.headers } });
    if (req.url === '/back') {
      res.writeHead(302, { location: `${base}/seen` }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  other.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => other.close(r));
  rmSync(tmpDir, { recursive: true, force: true });
});

// Every case ends with nothing staged: a success's file is dropped by the case, a failure leaves none.
afterEach(() => {
  expect(readdirSync(tmpDir)).toEqual([]);
});

const opts = (o: Partial<SafeDownloadOptions> = {}): SafeDownloadOptions => ({
  allowPrivate: true,
  maxBytes: 100_000,
  // Far past what a small loopback download takes on a busy machine; the deadline cases set their own.
  timeoutMs: 15_000,
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
    // Reading all 256 MiB would not take minutes either: the bound only rules out waiting for the deadline.
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('stops a download in flight when aborted, and leaves no partial file', async () => {
    const stop = new AbortController();
    const asked = seen.filter((s) => s.path === '/slow').length;
    const download = refusal(safeFetch(`${base}/slow`, opts({ timeoutMs: 20_000, signal: stop.signal })));
    // Aborted once the server has the request (and has sent the first bytes), never by the deadline.
    await waitFor(() => seen.filter((s) => s.path === '/slow').length > asked, { what: 'the server to get /slow' });
    stop.abort();
    expect(await download).toBe('ABORTED');
    const gone = new AbortController();
    gone.abort();
    expect(await refusal(safeFetch(`${base}/img.png`, opts({ signal: gone.signal })))).toBe('ABORTED');
  });

  it('stops when aborted while waiting for the answer, or just after its headers', async () => {
    for (const path of ['/silent', '/slow']) {
      const stop = new AbortController();
      const asked = seen.filter((s) => s.path === path).length;
      const download = refusal(safeFetch(`${base}${path}`, opts({ timeoutMs: 20_000, signal: stop.signal })));
      await waitFor(() => seen.filter((s) => s.path === path).length > asked, { what: `the server to get ${path}` });
      // At once, before the answer's headers can have been read: the download must not wait for the deadline.
      stop.abort();
      expect(await download, path).toBe('ABORTED');
    }
  });

  it('reads a small document into memory within its limit (exporter JSON)', async () => {
    const r = await safeFetchBytes(`${base}/img.png`, opts());
    expect(r.bytes.equals(png)).toBe(true);
    expect(await refusal(safeFetchBytes(`${base}/streamed-big`, opts()))).toBe('TOO_LARGE');
  });

  it('gives up on a slow server at the deadline', async () => {
    const t0 = Date.now();
    // The short deadline is the behaviour under test; the server never finishes, so only the
    // deadline ends the download, and the bound is loose enough for a busy machine.
    expect(await refusal(safeFetch(`${base}/slow`, opts({ timeoutMs: 300 })))).toBe('TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('keeps the deadline and the abort signal while the host name resolves', async () => {
    let lookups = 0;
    const never = () => {
      lookups++;
      return new Promise<Array<{ address: string; family: number }>>(() => {});
    };
    const t0 = Date.now();
    // As above: the short deadline is what is tested, the bound is loose.
    expect(await refusal(safeFetchBytes('http://slow-dns.test/', opts({ timeoutMs: 300, resolve: never })))).toBe(
      'TIMEOUT',
    );
    expect(Date.now() - t0).toBeLessThan(10_000);
    const stop = new AbortController();
    const download = refusal(
      safeFetch('http://slow-dns.test/a.png', opts({ timeoutMs: 20_000, resolve: never, signal: stop.signal })),
    );
    await waitFor(() => lookups === 2, { what: 'the second host name lookup to start' });
    stop.abort();
    expect(await download).toBe('ABORTED');
  });

  it('checks the bytes, not the claimed type, against what the media library accepts', async () => {
    expect(await refusal(safeFetch(`${base}/page`, opts()))).toBe('TYPE_NOT_ALLOWED');
    expect(await refusal(safeFetch(`${base}/missing.png`, opts()))).toBe('HTTP_STATUS');
  });

  it('refuses a redirect to another scheme, to a URL with credentials or to no valid URL', async () => {
    for (const path of ['/to-file', '/to-ftp', '/to-userinfo', '/bad-location']) {
      expect(await refusal(safeFetch(`${base}${path}`, opts())), path).toBe('BAD_URL');
      expect(await refusal(safeFetchBytes(`${base}${path}`, opts())), path).toBe('BAD_URL');
    }
  });

  it('reads CMS_IMPORT_ALLOW_PRIVATE_HOSTS through the configuration, off by default', () => {
    expect(resolveConfig({}).importAllowPrivateHosts).toBe(false);
    expect(resolveConfig({ importAllowPrivateHosts: '1' }).importAllowPrivateHosts).toBe(true);
    expect(resolveConfig({ importAllowPrivateHosts: '0' }).importAllowPrivateHosts).toBe(false);
  });
});

/** What the exporter client sends: a WordPress application password, plus the other kinds of credential. */
const CREDENTIALS = {
  authorization: 'Basic ZWRpdG9yOmFwcCBwYXNzIHdvcmQ=',
  cookie: 'wordpress_logged_in=secret',
  'x-wp-migration-key': 'secret-key',
  accept: 'application/json',
};
const CREDENTIAL_NAMES = ['authorization', 'cookie', 'x-wp-migration-key'];

describe('safeFetch across redirects: credentials stay with the origin they were given for', () => {
  const hop = (origin: 'first' | 'other', path: string) => {
    const found = seen.filter((s) => s.origin === origin && s.path === path);
    expect(found, `${origin} ${path}`).toHaveLength(1);
    return found[0].headers;
  };
  afterEach(() => {
    seen.length = 0;
  });

  it('keeps them on a redirect within the origin', async () => {
    const r = await safeFetchBytes(`${base}/to-same`, opts({ headers: CREDENTIALS }));
    expect(r.url).toBe(`${base}/seen`);
    for (const path of ['/to-same', '/seen']) {
      const h = hop('first', path);
      for (const name of CREDENTIAL_NAMES) expect(h[name], `${path} ${name}`).toBe(CREDENTIALS[name as 'cookie']);
    }
  });

  it('drops them on a redirect to another origin (another port), keeping the harmless headers', async () => {
    for (const fetchOnce of [
      () => safeFetchBytes(`${base}/to-other`, opts({ headers: CREDENTIALS })),
      async () => discard((await safeFetch(`${base}/to-other`, opts({ headers: CREDENTIALS }))).file),
    ]) {
      seen.length = 0;
      await fetchOnce();
      expect(hop('first', '/to-other').authorization).toBe(CREDENTIALS.authorization);
      const there = hop('other', '/seen');
      for (const name of CREDENTIAL_NAMES) expect(there[name], name).toBeUndefined();
      expect(there['proxy-authorization']).toBeUndefined();
      expect(there.accept).toBe('application/json');
      expect(there['user-agent']).toBe('cms-import');
    }
  });

  it('does not give them back when a later redirect returns to the first origin', async () => {
    const r = await safeFetchBytes(`${base}/bounce`, opts({ headers: CREDENTIALS }));
    expect(r.url).toBe(`${base}/seen`);
    for (const h of [hop('other', '/back'), hop('first', '/seen')]) {
      for (const name of CREDENTIAL_NAMES) expect(h[name], name).toBeUndefined();
    }
  });

  it('decides by origin: scheme, host and port; https to http is a downgrade', () => {
    const t = (a: string, b: string) => redirectTrust(new URL(a), new URL(b));
    expect(t('https://blog.example/a', 'https://blog.example/b?x=1')).toBe('same-origin');
    expect(t('https://blog.example/a', 'https://BLOG.example:443/b')).toBe('same-origin');
    expect(t('http://127.0.0.1:8080/a', 'http://127.0.0.1:8080/b')).toBe('same-origin');
    expect(t('https://blog.example/a', 'http://blog.example/a')).toBe('downgrade');
    expect(t('https://blog.example/a', 'http://elsewhere.example/a')).toBe('downgrade');
    expect(t('http://blog.example/a', 'https://blog.example/a')).toBe('cross-origin');
    expect(t('https://blog.example/a', 'https://blog.example:8443/a')).toBe('cross-origin');
    expect(t('https://blog.example/a', 'https://cdn.blog.example/a')).toBe('cross-origin');
    expect(t('http://127.0.0.1:8080/a', 'http://127.0.0.1:8081/a')).toBe('cross-origin');
    expect(t('http://127.0.0.1/a', 'http://localhost/a')).toBe('cross-origin');
  });
});

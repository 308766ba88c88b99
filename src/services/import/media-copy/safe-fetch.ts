/**
 * Fetching a URL the import was given, without letting it reach the server's own network.
 *
 * Every hop is checked: http(s) only, no credentials in the URL, the host name resolved once
 * and every address it has must be public; the connection then goes to that vetted address
 * (a custom `lookup`), so a second DNS answer cannot point elsewhere (no rebinding). Redirects
 * are followed by hand, each hop checked again. The body streams with a byte limit, the whole
 * exchange has a deadline, and the bytes' sniffed type must be one the media library accepts.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { CmsError } from '../../../core/errors.js';
import { mimeAllowed, sniffMime } from '../../media/mime.js';
import { forbiddenRange } from './address.js';

export type FetchRefusal =
  | 'BAD_URL'
  | 'PRIVATE_ADDRESS'
  | 'DNS_FAILED'
  | 'TOO_MANY_REDIRECTS'
  | 'HTTP_STATUS'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'TYPE_NOT_ALLOWED'
  | 'NETWORK';

/** A refused or failed fetch; `reason` is stable for callers and reports. */
export class FetchRefused extends CmsError {
  constructor(
    readonly reason: FetchRefusal,
    message: string,
    readonly url: string,
  ) {
    super('VALIDATION_ERROR', message, { reason, url });
  }
}

export interface SafeFetchOptions {
  /** Loopback and private networks allowed (tests, local development). */
  allowPrivate: boolean;
  maxBytes: number;
  /** Deadline for the whole exchange, redirects included. */
  timeoutMs: number;
  maxRedirects?: number;
  /** MIME patterns accepted (the media library's list); omitted: any type. */
  allowedTypes?: readonly string[];
  headers?: Record<string, string>;
  /** Host name resolution (tests inject answers); defaults to the system resolver, all addresses. */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

export interface SafeFetchResult {
  /** The address the bytes finally came from (after redirects). */
  url: string;
  bytes: Buffer;
  /** The type sniffed from the bytes (the server's claim only breaks ties among text types). */
  mime: string;
  /** The server's Content-Type, without parameters. */
  claimedType: string;
}

const DEFAULT_RESOLVE = (host: string) => dnsLookup(host, { all: true, verbatim: true });

export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  const deadline = Date.now() + opts.timeoutMs;
  const maxRedirects = opts.maxRedirects ?? 5;
  let url = rawUrl;
  for (let hop = 0; ; hop++) {
    const target = parseTarget(url);
    const address = await vet(target, opts);
    const res = await request(target, address, opts, deadline);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.destroy();
      if (hop >= maxRedirects)
        throw new FetchRefused('TOO_MANY_REDIRECTS', `More than ${maxRedirects} redirects`, rawUrl);
      url = new URL(res.headers.location, target).toString();
      continue;
    }
    if (status !== 200) {
      res.destroy();
      throw new FetchRefused('HTTP_STATUS', `The server answered ${status}`, url);
    }
    const bytes = await readBody(res, opts.maxBytes, deadline, url);
    const claimedType = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const mime = await sniffMime(bytes.subarray(0, 64 * 1024), bytes.length <= 64 * 1024, claimedType);
    if (opts.allowedTypes && !mimeAllowed(mime, opts.allowedTypes)) {
      throw new FetchRefused('TYPE_NOT_ALLOWED', `Files of type ${mime} are not accepted by the media library`, url);
    }
    return { url, bytes, mime, claimedType };
  }
}

function parseTarget(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new FetchRefused('BAD_URL', 'Not a valid URL', url);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new FetchRefused('BAD_URL', 'Only http and https URLs can be fetched', url);
  if (u.username || u.password) throw new FetchRefused('BAD_URL', 'URLs with credentials are not fetched', url);
  return u;
}

/** The one address this hop may connect to; every address of the name must be allowed. */
async function vet(u: URL, opts: SafeFetchOptions): Promise<{ address: string; family: number }> {
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  let answers: Array<{ address: string; family: number }>;
  if (isIP(host)) answers = [{ address: host, family: isIP(host) }];
  else {
    try {
      answers = await (opts.resolve ?? DEFAULT_RESOLVE)(host);
    } catch {
      throw new FetchRefused('DNS_FAILED', `The host name ${host} does not resolve`, u.toString());
    }
  }
  if (!answers.length) throw new FetchRefused('DNS_FAILED', `The host name ${host} does not resolve`, u.toString());
  for (const a of answers) {
    const range = forbiddenRange(a.address, opts.allowPrivate);
    if (range) {
      throw new FetchRefused(
        'PRIVATE_ADDRESS',
        `${host} points to a ${range} address, which imports may not fetch from`,
        u.toString(),
      );
    }
  }
  return answers[0];
}

function request(u: URL, to: { address: string; family: number }, opts: SafeFetchOptions, deadline: number) {
  // Connect to the vetted address whatever the resolver would say now; TLS still checks the host name.
  const lookup: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all) (cb as (e: null, a: unknown[]) => void)(null, [to]);
    else cb(null, to.address, to.family);
  };
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const left = deadline - Date.now();
    if (left <= 0) {
      reject(new FetchRefused('TIMEOUT', 'The download took too long', u.toString()));
      return;
    }
    const req = lib.request(u, {
      method: 'GET',
      lookup,
      headers: { 'user-agent': 'cms-import', ...opts.headers },
      agent: false,
    });
    const timer = setTimeout(
      () => req.destroy(new FetchRefused('TIMEOUT', 'The download took too long', u.toString())),
      left,
    );
    req.on('response', (res) => {
      // The same deadline keeps running while the body streams.
      res.once('close', () => clearTimeout(timer));
      resolve(res);
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(
        err instanceof FetchRefused
          ? err
          : new FetchRefused('NETWORK', `Could not download: ${(err as Error).message}`, u.toString()),
      );
    });
    req.end();
  });
}

function readBody(res: IncomingMessage, maxBytes: number, deadline: number, url: string): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    return Promise.reject(new FetchRefused('TOO_LARGE', `The file is larger than ${maxBytes} bytes`, url));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let done = false;
    const fail = (e: FetchRefused) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      res.destroy();
      reject(e);
    };
    const timer = setTimeout(
      () => fail(new FetchRefused('TIMEOUT', 'The download took too long', url)),
      Math.max(0, deadline - Date.now()),
    );
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        fail(new FetchRefused('TOO_LARGE', `The file is larger than ${maxBytes} bytes`, url));
        return;
      }
      parts.push(chunk);
    });
    res.on('end', () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(Buffer.concat(parts));
    });
    res.on('error', (err) =>
      fail(err instanceof FetchRefused ? err : new FetchRefused('NETWORK', `Download failed: ${err.message}`, url)),
    );
    res.on('aborted', () => fail(new FetchRefused('NETWORK', 'The server closed the connection early', url)));
  });
}

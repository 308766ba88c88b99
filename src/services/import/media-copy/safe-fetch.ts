/**
 * Fetching a URL the import was given, without letting it reach the server's own network.
 *
 * Every hop is checked: http(s) only, no credentials in the URL, the host name resolved once
 * and every address it has must be public; the connection then goes to that vetted address
 * (a custom `lookup`), so a second DNS answer cannot point elsewhere (no rebinding). Redirects
 * are followed by hand, each hop checked again, and the caller's headers (credentials) only go
 * to the origin they were given for (`redirects.ts`). The body streams to a temporary file (never held
 * in memory whole) with a byte limit, its SHA-1 and SHA-256 computed on the way; the type is
 * sniffed from the first bytes and must be one the media library accepts, before the rest is read.
 * The whole exchange has a deadline and can be aborted; a failure on any path leaves no file.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { CmsError } from '../../../core/errors.js';
import { mimeAllowed, sniffMime } from '../../media/mime.js';
import { HEAD_BYTES, type StagedFile, stageStream } from '../../media/staging.js';
import { forbiddenRange } from './address.js';
import { headersForHop, REDIRECT_STATUSES } from './redirects.js';

export type FetchRefusal =
  | 'BAD_URL'
  | 'PRIVATE_ADDRESS'
  | 'DNS_FAILED'
  | 'TOO_MANY_REDIRECTS'
  | 'HTTP_STATUS'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'TYPE_NOT_ALLOWED'
  | 'ABORTED'
  | 'NETWORK';

/** A refused or failed fetch; `reason` is stable for callers and reports. */
export class FetchRefused extends CmsError {
  constructor(
    readonly reason: FetchRefusal,
    message: string,
    readonly url: string,
    /** The status the source answered, for `HTTP_STATUS` (`status` is the CmsError's own HTTP status). */
    readonly sourceStatus?: number,
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
  /**
   * Sent to the first URL's origin, and on redirects within it. A redirect to another origin
   * (or https → http) carries only `accept` and `accept-language`: anything else may be a credential.
   */
  headers?: Record<string, string>;
  /** Host name resolution (tests inject answers); defaults to the system resolver, all addresses. */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
  /** Stops the exchange where it is (the client went away); a partial file is removed. */
  signal?: AbortSignal;
}

/** A file download: the body is staged under `tmpDir` (the media library's staging directory). */
export type SafeDownloadOptions = SafeFetchOptions & { tmpDir: string };

export interface SafeFetchResult {
  /** The address the bytes finally came from (after redirects). */
  url: string;
  /** The body on local disk with its size, SHA-256, SHA-1 and first bytes; the caller owns (and drops) it. */
  file: StagedFile;
  /** The type sniffed from the bytes (the server's claim only breaks ties among text types). */
  mime: string;
  /** The server's Content-Type, without parameters. */
  claimedType: string;
}

const DEFAULT_RESOLVE = (host: string) => dnsLookup(host, { all: true, verbatim: true });

/** The final 200 response after vetted redirects, its body not read yet. */
async function open(rawUrl: string, opts: SafeFetchOptions, deadline: number) {
  const maxRedirects = opts.maxRedirects ?? 5;
  let url = rawUrl;
  let headers = opts.headers ?? {};
  /** Some of the caller's headers were left behind on a redirect to another origin. */
  let withheld = false;
  for (let hop = 0; ; hop++) {
    if (opts.signal?.aborted) throw aborted(url);
    const target = parseTarget(url);
    const address = await vet(target, opts, deadline);
    const res = await request(target, address, headers, deadline, opts.signal);
    const status = res.statusCode ?? 0;
    if (REDIRECT_STATUSES.has(status) && res.headers.location) {
      res.destroy();
      if (hop >= maxRedirects)
        throw new FetchRefused('TOO_MANY_REDIRECTS', `More than ${maxRedirects} redirects`, rawUrl);
      url = nextUrl(res.headers.location, target);
      const next = headersForHop(headers, target, new URL(url));
      withheld ||= Object.keys(next).length < Object.keys(headers).length;
      headers = next;
      continue;
    }
    if (status !== 200) {
      res.destroy();
      // Said outright: a 401 from a host the credentials were kept from is no wrong password.
      const why = withheld
        ? ` after a redirect to ${target.origin}, which is not sent the credentials given for ${new URL(rawUrl).origin}`
        : '';
      throw new FetchRefused('HTTP_STATUS', `The server answered ${status}${why}`, url, status);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      res.destroy();
      throw tooLargeFor(url, opts.maxBytes);
    }
    const claimedType = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    return { url, res, claimedType };
  }
}

/** The URL a `Location` names (relative to the hop that sent it); one that is no URL is refused. */
function nextUrl(location: string, from: URL): string {
  try {
    return new URL(location, from).toString();
  } catch {
    throw new FetchRefused('BAD_URL', 'The server redirected to something that is not a valid URL', from.toString());
  }
}

/** Download a file to a staged temporary file (media copy). */
export async function safeFetch(rawUrl: string, opts: SafeDownloadOptions): Promise<SafeFetchResult> {
  const deadline = Date.now() + opts.timeoutMs;
  const { url, res, claimedType } = await open(rawUrl, opts, deadline);
  const { file, mime } = await stageBody(res, opts, deadline, url, claimedType);
  return { url, file, mime, claimedType };
}

/**
 * A small document in memory (the exporter API's JSON pages, which are parsed whole anyway),
 * within `maxBytes`.
 */
export async function safeFetchBytes(rawUrl: string, opts: SafeFetchOptions): Promise<{ url: string; bytes: Buffer }> {
  const deadline = Date.now() + opts.timeoutMs;
  const { url, res } = await open(rawUrl, opts, deadline);
  const parts: Buffer[] = [];
  let size = 0;
  await guarded(res, opts, deadline, url, async () => {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > opts.maxBytes) throw tooLargeFor(url, opts.maxBytes);
      parts.push(chunk);
    }
  });
  return { url, bytes: Buffer.concat(parts) };
}

const aborted = (url: string) => new FetchRefused('ABORTED', 'The download was stopped', url);
const tooLargeFor = (url: string, max: number) =>
  new FetchRefused('TOO_LARGE', `The file is larger than ${max} bytes`, url);

/**
 * Holds back the first bytes until their type is known (at most HEAD_BYTES in memory), refuses a
 * type the library does not accept before the rest is read, then lets everything through.
 */
class TypeGate extends Transform {
  mime = '';
  private held: Buffer[] = [];
  private heldSize = 0;
  private open = false;

  constructor(
    private readonly claimedType: string,
    private readonly allowed: readonly string[] | undefined,
    private readonly url: string,
  ) {
    super();
  }

  private async decide(complete: boolean): Promise<void> {
    const head = Buffer.concat(this.held);
    this.mime = await sniffMime(head.subarray(0, HEAD_BYTES), complete, this.claimedType);
    if (this.allowed && !mimeAllowed(this.mime, this.allowed)) {
      throw new FetchRefused(
        'TYPE_NOT_ALLOWED',
        `Files of type ${this.mime} are not accepted by the media library`,
        this.url,
      );
    }
    this.open = true;
    this.held = [];
    this.push(head);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.open) {
      done(null, chunk);
      return;
    }
    this.held.push(chunk);
    this.heldSize += chunk.length;
    if (this.heldSize < HEAD_BYTES) {
      done();
      return;
    }
    this.decide(false).then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    if (this.open) done();
    else this.decide(true).then(() => done(), done);
  }
}

/**
 * Read the body with `read` under the deadline and the abort signal; whatever stops it becomes
 * the right refusal (the response is destroyed, so nothing more is read).
 */
async function guarded<T>(
  res: IncomingMessage,
  opts: SafeFetchOptions,
  deadline: number,
  url: string,
  read: () => Promise<T>,
): Promise<T> {
  let stop: FetchRefused | null = null;
  const halt = (why: FetchRefused) => {
    stop ??= why;
    res.destroy(why);
  };
  const timer = setTimeout(
    () => halt(new FetchRefused('TIMEOUT', 'The download took too long', url)),
    Math.max(0, deadline - Date.now()),
  );
  const onAbort = () => halt(aborted(url));
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // An abort between the answer's headers and this point fired no listener of ours.
  if (opts.signal?.aborted) onAbort();
  // A connection cut short is an error of the response, not a short file.
  const onCut = () => halt(new FetchRefused('NETWORK', 'The server closed the connection early', url));
  res.once('aborted', onCut);
  try {
    return await read();
  } catch (err) {
    res.destroy();
    // The reader's own refusal first: dropping the connection on it can look like a cut connection.
    if (err instanceof CmsError && err.code === 'PAYLOAD_TOO_LARGE') throw tooLargeFor(url, opts.maxBytes);
    if (err instanceof FetchRefused) throw err;
    if (stop) throw stop;
    throw new FetchRefused('NETWORK', `Download failed: ${(err as Error).message}`, url);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    res.off('aborted', onCut);
  }
}

/** The body into a staged file (SHA-1 and SHA-256 on the way), its type checked on the first bytes. */
function stageBody(
  res: IncomingMessage,
  opts: SafeDownloadOptions,
  deadline: number,
  url: string,
  claimedType: string,
): Promise<{ file: StagedFile; mime: string }> {
  const gate = new TypeGate(claimedType, opts.allowedTypes, url);
  return guarded(res, opts, deadline, url, async () => {
    const file = await stageStream(res, opts.tmpDir, opts.maxBytes, { sha1: true, through: [gate] });
    return { file, mime: gate.mime };
  });
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
async function vet(u: URL, opts: SafeFetchOptions, deadline: number): Promise<{ address: string; family: number }> {
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  let answers: Array<{ address: string; family: number }>;
  if (isIP(host)) answers = [{ address: host, family: isIP(host) }];
  else {
    try {
      answers = await beforeDeadline((opts.resolve ?? DEFAULT_RESOLVE)(host), u.toString(), deadline, opts.signal);
    } catch (err) {
      if (err instanceof FetchRefused) throw err;
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

/** `work`, unless the deadline passes or the signal aborts first (a resolver that never answers). */
function beforeDeadline<T>(work: Promise<T>, url: string, deadline: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(aborted(url)));
    timer = setTimeout(
      () => finish(() => reject(new FetchRefused('TIMEOUT', 'The download took too long', url))),
      Math.max(0, deadline - Date.now()),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => finish(() => resolve(v)),
      (e) => finish(() => reject(e)),
    );
  });
}

function request(
  u: URL,
  to: { address: string; family: number },
  headers: Record<string, string>,
  deadline: number,
  signal?: AbortSignal,
) {
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
    if (signal?.aborted) {
      reject(aborted(u.toString()));
      return;
    }
    const req = lib.request(u, {
      method: 'GET',
      lookup,
      headers: { 'user-agent': 'cms-import', ...headers },
      agent: false,
    });
    const timer = setTimeout(
      () => req.destroy(new FetchRefused('TIMEOUT', 'The download took too long', u.toString())),
      left,
    );
    // Stopped while waiting for the answer's headers (a server that never sends them included).
    const onAbort = () => req.destroy(aborted(u.toString()));
    signal?.addEventListener('abort', onAbort, { once: true });
    const settled = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    req.on('response', (res) => {
      // From here the body's reader (`guarded`) keeps the same deadline and the signal. A second
      // timer here would race it: destroying the request first makes a slow body look like a cut connection.
      settled();
      resolve(res);
    });
    req.on('error', (err) => {
      settled();
      reject(
        err instanceof FetchRefused
          ? err
          : new FetchRefused('NETWORK', `Could not download: ${(err as Error).message}`, u.toString()),
      );
    });
    req.end();
  });
}

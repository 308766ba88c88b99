import { type Credentials, readCredentials, withCredentialsLock, writeCredentials } from './credentials.js';
import { CliError } from './errors.js';
import { OAuthReply, refreshTokens, type TokenSet } from './oauth-client.js';

/** Refresh this long before the access token expires. */
const EARLY_MS = 60_000;
const REQUEST_TIMEOUT_MS = 60_000;

export function credentialsFrom(previous: Pick<Credentials, 'url' | 'clientId'>, tokens: TokenSet): Credentials {
  return {
    version: 1,
    url: previous.url,
    clientId: previous.clientId,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
    scope: tokens.scope,
  };
}

export function requireCredentials(path: string): Credentials {
  const creds = readCredentials(path);
  if (!creds) throw new CliError('Not signed in; run: cms login --url <site URL>');
  return creds;
}

/**
 * Exchange the refresh token for a new pair, under the credentials lock. If
 * another command refreshed meanwhile, its result is used instead (a refresh
 * token works once).
 */
async function refreshed(stale: Credentials, path: string): Promise<Credentials> {
  return withCredentialsLock(async () => {
    const current = readCredentials(path);
    if (!current) throw new CliError('Not signed in; run: cms login --url <site URL>');
    if (current.refreshToken !== stale.refreshToken) return current;
    try {
      const next = credentialsFrom(current, await refreshTokens(current.url, current.clientId, current.refreshToken));
      writeCredentials(next, path);
      return next;
    } catch (err) {
      if (err instanceof OAuthReply && err.error === 'invalid_grant') {
        throw new CliError(
          `Your sign-in to ${current.url} has ended (${err.message}); run: cms login --url ${current.url}`,
        );
      }
      if (err instanceof OAuthReply) throw new CliError(`Refreshing the sign-in failed: ${err.message}`);
      throw err;
    }
  }, path);
}

/** Where a remote command gets its bearer token. */
export interface TokenSource {
  /** The site's public URL (no trailing slash). */
  url: string;
  /** How the token was found, for the "which target" line. */
  via: string;
  token(): Promise<string>;
  /** A fresh token after a 401, when the source can renew one. */
  renew?(): Promise<string>;
}

export function staticToken(url: string, token: string): TokenSource {
  return { url, via: 'token', token: async () => token };
}

/** The stored `cms login`: refreshed shortly before it expires, and once more after a 401. */
export function storedSignIn(path: string): TokenSource {
  let creds = requireCredentials(path);
  return {
    url: creds.url,
    via: 'stored sign-in',
    async token() {
      if (Date.parse(creds.expiresAt) - EARLY_MS <= Date.now()) creds = await refreshed(creds, path);
      return creds.accessToken;
    },
    async renew() {
      creds = await refreshed(creds, path);
      return creds.accessToken;
    },
  };
}

export interface FetchOptions {
  /**
   * A download of any size: the timeout covers the wait for the answer's
   * headers, then only a stall (no byte for that long), never the whole body.
   */
  stream?: boolean;
  /**
   * An upload of any size, its body a stream: the timeout covers a stall (no
   * byte taken for that long, or no answer that long after the last one),
   * never the whole body. Sent once: a stream cannot be sent again, so there
   * is no second try after a 401 (the token is refreshed before it expires).
   */
  upload?: boolean;
}

/** The request with its body watched: `arm` runs on each chunk the connection takes. */
function watchedUpload(request: Request, headers: Headers, signal: AbortSignal, arm: () => void): Request {
  const body = request.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        arm();
        out.enqueue(chunk);
      },
    }),
  );
  return new Request(request, { headers, signal, ...(body ? { body, duplex: 'half' } : {}) } as RequestInit);
}

/** The body of a streamed answer, failing when no byte arrives for `ms`. */
function watchedBody(res: Response, controller: AbortController, ms: number, url: string): Response {
  if (!res.body) return res;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new CliError(`${url} sent nothing for ${ms / 1000} s`)), ms);
    timer.unref();
  };
  arm();
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        arm();
        out.enqueue(chunk);
      },
      flush() {
        clearTimeout(timer);
      },
    }),
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** fetch with the bearer token, a timeout, one renewal after a 401, and network failures as one-line errors. */
export function bearerFetch(source: TokenSource, options: FetchOptions = {}): (request: Request) => Promise<Response> {
  const send = async (request: Request, token: string) => {
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${token}`);
    headers.set('accept', options.stream ? '*/*' : 'application/json');
    // A download's timer stops when the headers arrive; the body is then watched for stalls instead.
    const controller = new AbortController();
    let timer = options.stream
      ? setTimeout(
          () => controller.abort(new CliError(`${source.url} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`)),
          REQUEST_TIMEOUT_MS,
        ).unref()
      : undefined;
    // An upload: the timer restarts with every chunk sent, and finally waits for the answer.
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          controller.abort(new CliError(`${source.url} stopped taking the upload for ${REQUEST_TIMEOUT_MS / 1000} s`)),
        REQUEST_TIMEOUT_MS,
      ).unref();
    };
    try {
      if (options.upload) {
        arm();
        return await fetch(watchedUpload(request, headers, controller.signal, arm));
      }
      const signal = options.stream ? controller.signal : AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      const res = await fetch(new Request(request, { headers, signal }));
      return options.stream ? watchedBody(res, controller, REQUEST_TIMEOUT_MS, source.url) : res;
    } catch (err) {
      if (err instanceof CliError) throw err;
      const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
      throw new CliError(`Cannot reach ${source.url}: ${cause}`);
    } finally {
      clearTimeout(timer);
    }
  };
  return async (request) => {
    // A spare copy for a second try after a 401; never of an upload (it would keep the whole stream in memory).
    const spare = source.renew && !options.upload ? request.clone() : null;
    const res = await send(request, await source.token());
    if (res.status !== 401 || !spare || !source.renew) return res;
    await res.body?.cancel();
    return send(spare, await source.renew());
  };
}

/** A REST call with a token source: for routes outside the OpenAPI document (auth, tokens). */
export async function remoteFetch(source: TokenSource, path: string, init: RequestInit = {}): Promise<Response> {
  return bearerFetch(source)(new Request(`${source.url}/_cms/api${path}`, init));
}

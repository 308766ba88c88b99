import { ApiError, networkError, toApiError } from './errors';

/** Every REST route lives under this prefix (same origin as the admin). */
export const API_BASE = '/_cms/api';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The admin is a cookie-authenticated browser client: every state-changing
 * request carries `X-CMS-Request: 1` (the service's CSRF rule).
 */
export function withCsrfHeader(method: string, headers: Headers): Headers {
  if (!SAFE_METHODS.has(method.toUpperCase())) headers.set('X-CMS-Request', '1');
  return headers;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Small typed fetch for the routes the OpenAPI document leaves out (sign-in,
 * setup, passkeys, invites, tokens). Returns `data` of the success envelope,
 * throws ApiError otherwise.
 */
export async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers = withCsrfHeader(method, new Headers({ Accept: 'application/json' }));
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  let res: Response;
  try {
    res = await fetch(API_BASE + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw networkError(err);
  }
  const parsed = await readBody(res);
  if (!res.ok) throw toApiError(res.status, parsed);
  const envelope = parsed as { success?: boolean; data?: T } | undefined;
  if (envelope?.success !== true) {
    throw new ApiError(res.status, 'HTTP_ERROR', 'The server answered with an unexpected response.');
  }
  return envelope.data as T;
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => request<T>('POST', path, body);
export const put = <T>(path: string, body: unknown) => request<T>('PUT', path, body);
export const del = <T>(path: string) => request<T>('DELETE', path);

/** Encode one path segment (ids, domains, tokens). */
export const seg = (value: string) => encodeURIComponent(value);

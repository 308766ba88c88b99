import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Cms } from '../../../src/index.js';
import type { TestCms } from '../../helpers/cms.js';
import { type Browser, sessionFor } from '../../helpers/session.js';

/** Helpers for the OAuth suites: raw protocol requests through app.request, like a client library would send. */

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/** POST a form to an OAuth endpoint (`/token`, `/device/code` …). */
export async function form(
  cms: Cms,
  path: string,
  params: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  const res = await cms.app.request(`/_cms/api/oauth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: body.toString(),
  });
  return answer(res);
}

export async function getJson(cms: Cms, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return answer(await cms.app.request(path, { headers }));
}

export async function register(cms: Cms, metadata: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await cms.app.request('/_cms/api/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(metadata),
  });
  return answer(res);
}

export const REDIRECT = 'http://127.0.0.1:8976/callback';

/** A public client for the authorization code grant (and refresh). */
export async function publicClient(cms: Cms, extra: Record<string, unknown> = {}): Promise<{ clientId: string }> {
  const res = await register(cms, {
    client_name: 'Test Agent',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { clientId: res.body.client_id };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** GET the authorization endpoint; returns the Location it redirects to (or the error answer). */
export async function authorize(cms: Cms, params: Record<string, string | undefined>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  const res = await cms.app.request(`/_cms/api/oauth/authorize?${q}`);
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location) : null, res: await answer(res) };
}

/** The request id of a redirect to the consent page. */
export function consentRequestId(location: URL | null): string {
  expect(location?.pathname).toBe('/_cms/admin/oauth/consent');
  return location!.searchParams.get('request')!;
}

export interface CodeFlow {
  clientId: string;
  verifier: string;
  code: string;
  redirect: URL;
  browser: Browser;
}

/**
 * Authorization code up to the code: register (unless given a client),
 * authorize with PKCE, approve in a session of `userId` (default: the Admin).
 */
export async function codeFlow(
  cms: TestCms,
  options: { clientId?: string; scope?: string; userId?: string; approve?: string[]; browser?: Browser } = {},
): Promise<CodeFlow> {
  const clientId = options.clientId ?? (await publicClient(cms)).clientId;
  const { verifier, challenge } = pkce();
  const start = await authorize(cms, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: options.scope ?? 'content:read content:write',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  expect(start.status, JSON.stringify(start.res.body)).toBe(302);
  const requestId = consentRequestId(start.location);
  const browser = options.browser ?? (await sessionFor(cms, options.userId ?? cms.adminId));
  const approved = await browser.call('POST', `/oauth/requests/${requestId}/approve`, {
    body: options.approve ? { scopes: options.approve } : {},
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const redirect = new URL(approved.body.data.redirectTo);
  return { clientId, verifier, code: redirect.searchParams.get('code')!, redirect, browser };
}

/** Exchange a code for tokens. */
export function redeem(
  cms: Cms,
  flow: { clientId: string; code: string; verifier: string },
  extra: Record<string, string> = {},
) {
  return form(cms, '/token', {
    grant_type: 'authorization_code',
    client_id: flow.clientId,
    code: flow.code,
    redirect_uri: REDIRECT,
    code_verifier: flow.verifier,
    ...extra,
  });
}

/** Tokens for a user through the whole code flow. */
export async function tokensFor(cms: TestCms, options: Parameters<typeof codeFlow>[1] = {}) {
  const flow = await codeFlow(cms, options);
  const res = await redeem(cms, flow);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return {
    ...flow,
    tokens: res.body as { access_token: string; refresh_token: string; scope: string; expires_in: number },
  };
}

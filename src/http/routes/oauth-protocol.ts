import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isCmsError } from '../../core/errors.js';
import { findTextProblem } from '../../core/text.js';
import { RegistrationBody } from '../../schemas/oauth.js';
import type { RateLimitRule } from '../../services/auth/index.js';
import {
  type ClientCredentials,
  GRANT_DEVICE_CODE,
  isOAuthError,
  OAuthError,
  type TokenRequest,
} from '../../services/oauth/index.js';
import type { AppEnv } from '../env.js';
import { rateLimit } from '../middleware/rate-limit.js';

export const OAUTH_ROOT = '/_cms/api/oauth';
const BODY_LIMIT = 64 * 1024;
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/**
 * The OAuth protocol endpoints (RFC 6749, 7591, 7009, 8628), mounted before
 * the REST API: they take form-encoded bodies, authenticate clients rather
 * than users, and answer `{ error, error_description }` instead of the REST
 * envelope. Cross-origin calls are allowed (no cookies are involved), so
 * browser-based MCP clients can use them; the authorization endpoint is a
 * browser navigation and needs none.
 */
export function oauthProtocolRoutes(app: Hono<AppEnv>): void {
  const limit = bodyLimit({
    maxSize: BODY_LIMIT,
    onError: (c) => c.json(new OAuthError('invalid_request', 'Request body too large').toJSON(), 413),
  });
  for (const path of ['/register', '/token', '/device/code', '/device/token', '/revoke']) {
    app.use(
      `${OAUTH_ROOT}${path}`,
      cors({ origin: '*', allowMethods: ['POST'], allowHeaders: ['Authorization', 'Content-Type'], maxAge: 600 }),
    );
  }

  app.post(`${OAUTH_ROOT}/register`, limit, (c) =>
    protocol(c, async () => {
      await countRequest(c, 'oauthRegister');
      const parsed = RegistrationBody.safeParse(await readJson(c));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new OAuthError('invalid_client_metadata', `${issue.path.join('.') || 'body'}: ${issue.message}`);
      }
      return c.json(await c.get('services').oauth.register(parsed.data), 201, NO_STORE);
    }),
  );

  app.get(`${OAUTH_ROOT}/authorize`, (c) =>
    protocol(c, async () => {
      const q = c.req.query();
      const { redirect } = await c.get('services').oauth.authorize({
        response_type: q.response_type,
        client_id: q.client_id,
        redirect_uri: q.redirect_uri,
        scope: q.scope,
        state: q.state,
        code_challenge: q.code_challenge,
        code_challenge_method: q.code_challenge_method,
        resource: q.resource,
      });
      return c.redirect(redirect, 302);
    }),
  );

  const tokenEndpoint = (c: Context<AppEnv>, deviceOnly: boolean) =>
    protocol(c, async () => {
      const form = await readForm(c);
      const params = pick<TokenRequest>(form, [
        'grant_type',
        'code',
        'redirect_uri',
        'code_verifier',
        'refresh_token',
        'scope',
        'device_code',
        'resource',
      ]);
      if (deviceOnly && params.grant_type !== GRANT_DEVICE_CODE) {
        throw new OAuthError('unsupported_grant_type', `This endpoint takes only grant_type=${GRANT_DEVICE_CODE}`);
      }
      // Device polling is limited wherever it arrives, so the token endpoint is no way around the limit.
      if (params.grant_type === GRANT_DEVICE_CODE) await countRequest(c, 'oauthDeviceToken');
      const tokens = await c.get('services').oauth.token(credentials(c, form), params);
      return c.json(tokens, 200, NO_STORE);
    });
  app.post(`${OAUTH_ROOT}/token`, limit, (c) => tokenEndpoint(c, false));
  app.post(`${OAUTH_ROOT}/device/token`, limit, (c) => tokenEndpoint(c, true));

  app.post(`${OAUTH_ROOT}/device/code`, limit, (c) =>
    protocol(c, async () => {
      await countRequest(c, 'oauthDeviceCode');
      const form = await readForm(c);
      const result = await c.get('services').oauth.deviceAuthorization(credentials(c, form), { scope: form.scope });
      return c.json(result, 200, NO_STORE);
    }),
  );

  app.post(`${OAUTH_ROOT}/revoke`, limit, (c) =>
    protocol(c, async () => {
      const form = await readForm(c);
      await c.get('services').oauth.revoke(credentials(c, form), {
        token: form.token,
        token_type_hint: form.token_type_hint,
      });
      return c.body(null, 200, NO_STORE);
    }),
  );
}

/** Run a protocol handler; failures become RFC 6749 error bodies, never the REST envelope. */
async function protocol(c: Context<AppEnv>, fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (err) {
    if (isOAuthError(err)) {
      const headers: Record<string, string> = { ...NO_STORE };
      if (err.status === 401 && c.req.header('authorization')?.toLowerCase().startsWith('basic ')) {
        headers['WWW-Authenticate'] = 'Basic realm="cms"';
      }
      return c.json(err.toJSON(), err.status as ContentfulStatusCode, headers);
    }
    if (isCmsError(err) && err.code === 'RATE_LIMITED') {
      const retryAfter = String(err.details?.retryAfter ?? 60);
      return c.json(new OAuthError('temporarily_unavailable', err.message).toJSON(), 429, {
        ...NO_STORE,
        'Retry-After': retryAfter,
      });
    }
    c.get('log').error({ err }, 'OAuth endpoint failure');
    return c.json(new OAuthError('server_error', 'Internal server error').toJSON(), 500, NO_STORE);
  }
}

/** Count the request against a rate-limit rule (per trusted client IP), reusing the REST middleware. */
async function countRequest(c: Context<AppEnv>, rule: RateLimitRule): Promise<void> {
  await rateLimit(rule)(c, async () => {});
}

async function readJson(c: Context<AppEnv>): Promise<unknown> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().includes('application/json')) {
    throw new OAuthError('invalid_client_metadata', 'Send the client metadata as application/json');
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new OAuthError('invalid_client_metadata', 'Malformed JSON in request body');
  }
  const problem = findTextProblem(body);
  if (problem)
    throw new OAuthError('invalid_client_metadata', `${problem.path.join('.') || 'body'} ${problem.message}`);
  return body;
}

/**
 * Token, device and revocation requests are form-encoded (RFC 6749 §4.1.3);
 * a JSON object of strings is accepted too. A parameter sent twice is an error.
 */
async function readForm(c: Context<AppEnv>): Promise<Record<string, string>> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (type.includes('application/json')) {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new OAuthError('invalid_request', 'Malformed JSON in request body');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new OAuthError('invalid_request', 'The body must be an object');
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
    return storableForm(out);
  }
  if (!type.includes('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded');
  }
  const params = new URLSearchParams(await c.req.text());
  const out: Record<string, string> = {};
  for (const [k, v] of params) {
    if (Object.hasOwn(out, k)) throw new OAuthError('invalid_request', `Parameter "${k}" is repeated`);
    out[k] = v;
  }
  return storableForm(out);
}

/** NUL bytes and unpaired surrogates are refused here as at the REST door (PostgreSQL cannot store them). */
function storableForm(form: Record<string, string>): Record<string, string> {
  const problem = findTextProblem(form);
  if (problem) throw new OAuthError('invalid_request', `${problem.path.join('.')} ${problem.message}`);
  return form;
}

function pick<T>(form: Record<string, string>, keys: Array<keyof T & string>): T {
  const out: Record<string, string> = {};
  for (const k of keys) if (form[k] !== undefined) out[k] = form[k];
  return out as T;
}

/** Client credentials from the body and from HTTP Basic (RFC 6749 §2.3.1: both parts form-encoded). */
function credentials(c: Context<AppEnv>, form: Record<string, string>): ClientCredentials {
  const creds: ClientCredentials = { clientId: form.client_id, clientSecret: form.client_secret };
  const header = c.req.header('authorization');
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (m) {
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials');
    try {
      creds.basic = {
        id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
        secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
      };
    } catch {
      throw new OAuthError('invalid_client', 'Malformed Basic credentials');
    }
  }
  return creds;
}

import type { Context, Next } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type Actor, anonymousActor } from '../../auth/actor.js';
import { CmsError, isCmsError } from '../../core/errors.js';
import type { EdgeAccessOps } from '../../services/auth/edge-access/index.js';
import type { AppEnv } from '../env.js';
import { currentSessionId, setSessionCookie } from '../session-cookie.js';
import { bearerActor } from './bearer.js';
import { errorBody } from './errors.js';
import { enforceCsrf } from './session.js';

/** The header the gateway puts its signed token in. */
export const EDGE_ACCESS_HEADER = 'edge-access-jwt-assertion';

const tokenMissing = () =>
  new CmsError(
    'EDGE_ACCESS_TOKEN_MISSING',
    'The request carries no gateway token (Edge-Access-Jwt-Assertion): the gateway does not protect this address, or its policy did not match the request',
  );

const assertionOf = (c: Context<AppEnv>) => c.req.header(EDGE_ACCESS_HEADER)?.trim() || null;

/** A Bearer token behind the gateway also needs the gateway's token, of the same person. */
export async function confirmGatewayBearer(c: Context<AppEnv>, gateway: EdgeAccessOps, actor: Actor): Promise<void> {
  const assertion = assertionOf(c);
  if (!assertion) throw tokenMissing();
  await gateway.confirmBearer(assertion, actor);
}

/**
 * Who is calling in the edge access gateway mode. With a token the gateway accepts, the caller
 * is its user (a session is opened or reused; the CSRF rule of cookie sessions applies, since
 * the gateway's own cookie rides along on cross-site requests too). Without one the caller is
 * anonymous, whatever session cookie it holds: public routes answer as to anyone, and a route
 * that needs a signed-in caller answers why there is none (EDGE_ACCESS_TOKEN_MISSING, or the
 * token's refusal) instead of UNAUTHORIZED. A Bearer token is explicit: its refusals are at once.
 */
export async function edgeAccessAuthenticate(c: Context<AppEnv>, next: Next, gateway: EdgeAccessOps): Promise<void> {
  const authorization = c.req.header('authorization');
  const assertion = assertionOf(c);
  let actor: Actor | null = null;
  let refusal: CmsError = tokenMissing();
  if (authorization) {
    actor = await bearerActor(c, authorization);
    await confirmGatewayBearer(c, gateway, actor);
  } else if (assertion) {
    enforceCsrf(c);
    try {
      const signedIn = await gateway.authenticate(assertion, currentSessionId(c));
      if (signedIn.session) setSessionCookie(c, signedIn.session);
      actor = signedIn.actor;
    } catch (err) {
      if (!isCmsError(err)) throw err;
      refusal = err;
    }
  }
  c.set('actor', actor ?? anonymousActor);
  await next();
  if (!actor && isCmsError(c.error) && c.error.code === 'UNAUTHORIZED') {
    c.res = c.json(errorBody(refusal), refusal.status as ContentfulStatusCode);
  }
}

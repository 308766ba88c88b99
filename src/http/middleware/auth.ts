import type { MiddlewareHandler } from 'hono';
import { anonymousActor } from '../../auth/actor.js';
import type { AppEnv } from '../env.js';
import { bearerActor } from './bearer.js';
import { edgeAccessAuthenticate } from './edge-access.js';
import { enforceCsrf, sessionActor } from './session.js';

/**
 * Resolve the caller. A Bearer token that does not resolve is a 401 at once
 * (never a silent fall back to anonymous); without one, the `cms_session`
 * cookie (state-changing requests then need `X-CMS-Request: 1`); no valid
 * credentials means anonymous, and each service decides whether that is enough.
 * In the edge access gateway mode the gateway's token decides instead (edge-access.ts).
 */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const gateway = c.get('services').auth.edgeAccess;
    if (gateway) return edgeAccessAuthenticate(c, next, gateway);
    const header = c.req.header('authorization');
    if (header) {
      c.set('actor', await bearerActor(c, header));
    } else {
      const session = await sessionActor(c);
      if (session) enforceCsrf(c);
      c.set('actor', session ?? anonymousActor);
    }
    await next();
  };
}

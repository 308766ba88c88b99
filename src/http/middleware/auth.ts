import type { MiddlewareHandler } from 'hono';
import { anonymousActor } from '../../auth/actor.js';
import { bearerFrom } from '../../auth/tokens.js';
import { CmsError } from '../../core/errors.js';
import type { AppEnv } from '../env.js';
import { enforceCsrf, sessionActor } from './session.js';

/**
 * Resolve the caller. A Bearer token that does not resolve is a 401 at once
 * (never a silent fall back to anonymous); without one, the `cms_session`
 * cookie (state-changing requests then need `X-CMS-Request: 1`); no valid
 * credentials means anonymous, and each service decides whether that is enough.
 */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (header) {
      const token = bearerFrom(header);
      if (!token) throw new CmsError('UNAUTHORIZED', 'Authorization header must be "Bearer <token>"');
      const actor = await c.get('services').tokens.authenticate(token);
      if (!actor) throw new CmsError('UNAUTHORIZED', 'Invalid, expired or revoked token');
      c.set('actor', actor);
    } else {
      const session = await sessionActor(c);
      if (session) enforceCsrf(c);
      c.set('actor', session ?? anonymousActor);
    }
    await next();
  };
}

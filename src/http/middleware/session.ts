import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Actor } from '../../auth/actor.js';
import { CmsError } from '../../core/errors.js';
import { SESSION_COOKIE } from '../../services/auth/index.js';
import type { AppEnv } from '../env.js';

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const CSRF_HEADER = 'x-cms-request';

/** The actor of the `cms_session` cookie, or null (no cookie, unknown, expired, user disabled). */
export async function sessionActor(c: Context<AppEnv>): Promise<Actor | null> {
  const id = getCookie(c, SESSION_COOKIE);
  if (!id) return null;
  return c.get('services').auth.sessions.resolve(id);
}

/**
 * CSRF rule for cookie-authenticated requests: a state-changing request must
 * carry `X-CMS-Request: 1`, a header a cross-site form or a simple
 * cross-origin fetch cannot add.
 */
export function enforceCsrf(c: Context<AppEnv>): void {
  if (STATE_CHANGING.has(c.req.method) && c.req.header(CSRF_HEADER) !== '1') {
    throw new CmsError(
      'CSRF_REJECTED',
      'State-changing requests signed in with the session cookie must send the header X-CMS-Request: 1',
    );
  }
}

/**
 * Public write operations reached by browsers (sign-in, magic-link send,
 * sign-up, setup …): an anonymous state-changing request must send
 * `X-CMS-Request: 1` or an Origin equal to the site's public origin or the
 * request's own origin. Requests with neither are refused.
 */
export function publicWrite(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (STATE_CHANGING.has(c.req.method) && c.get('actor').via === 'anonymous' && c.req.header(CSRF_HEADER) !== '1') {
      const origin = c.req.header('origin');
      const allowed = [c.get('services').auth.publicOrigin, new URL(c.req.url).origin];
      if (!origin || !allowed.includes(origin)) {
        throw new CmsError(
          'CSRF_REJECTED',
          'Send the header X-CMS-Request: 1 (or make the request from a page of this site)',
          origin ? { origin } : undefined,
        );
      }
    }
    await next();
  };
}

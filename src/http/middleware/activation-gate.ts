import type { MiddlewareHandler } from 'hono';
import { routeGated } from '../../services/media-usage/gate.js';
import type { AppEnv } from '../env.js';

/**
 * Every state-changing REST request, hand-written routes included, passes the
 * media usage write gate; the writes left open are listed with their reasons
 * in services/media-usage/gate.ts.
 */
export function activationGate(apiRoot: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (routeGated(c.req.method, c.req.path.slice(apiRoot.length)))
      await c.get('services').mediaUsage.checkWritesOpen();
    await next();
  };
}

import type { MiddlewareHandler } from 'hono';
import { routeGated } from '../../services/media-usage/gate.js';
import { importGated } from '../../services/transfer/gate.js';
import type { AppEnv } from '../env.js';

/**
 * Every state-changing REST request, hand-written routes included, passes the
 * write gates: media usage activation (the writes left open are listed with
 * their reasons in services/media-usage/gate.ts) and a site import holding
 * the site (services/transfer/gate.ts).
 */
export function activationGate(apiRoot: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path.slice(apiRoot.length);
    const services = c.get('services');
    if (importGated(c.req.method, path)) await services.transfer.checkWritesOpen();
    if (routeGated(c.req.method, path)) await services.mediaUsage.checkWritesOpen();
    await next();
  };
}

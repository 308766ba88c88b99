import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { checkHolds, type OpenDuring } from '../../services/holds.js';
import type { AppEnv } from '../env.js';

/**
 * Every state-changing REST request passes the holds (services/holds.ts)
 * before its body is read or parsed, so a refused upload is not streamed in.
 * What a route stays open during is declared with the route (`op({ openDuring })`
 * or `declareOpen` for a hand-written one); a write to a path no route
 * declares meets every hold, as an undeclared write would.
 */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const declared = new WeakMap<object, Map<string, OpenDuring>>();

/** The key of a route as the router reports it: method and path with `:param` segments. */
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;

/** Record what a write route of `api` stays open during (path relative to the API root, `{param}` or `:param`). */
export function declareOpen(api: object, method: string, path: string, openDuring: OpenDuring | undefined): void {
  if (!openDuring) return;
  const routes = declared.get(api) ?? new Map<string, OpenDuring>();
  declared.set(api, routes);
  routes.set(routeKey(method, path), openDuring);
}

/** What a write route of `api` stays open during (nothing declared: it meets every hold). */
export function openDuringOf(api: object, method: string, path: string): OpenDuring | undefined {
  return declared.get(api)?.get(routeKey(method, path));
}

export function holdGate(api: object, apiRoot: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (STATE_CHANGING.has(c.req.method)) {
      // The route that will answer: the last one matched that is not a middleware (`ALL`).
      const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL');
      const path = route?.path.startsWith(apiRoot) ? route.path.slice(apiRoot.length) : undefined;
      const openDuring = path === undefined ? undefined : openDuringOf(api, c.req.method, path);
      await checkHolds(c.get('services'), openDuring);
    }
    await next();
  };
}

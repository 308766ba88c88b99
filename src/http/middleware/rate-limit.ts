import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { RateLimitRule } from '../../services/auth/index.js';
import type { AppEnv } from '../env.js';

/** The TCP peer address; null when the request did not come through a socket (in-process `app.request`). */
function socketAddress(c: Context<AppEnv>): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/** Count the request against a rate-limit rule (per trusted client IP); 429 with Retry-After past the limit. */
export function rateLimit(rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await c.get('services').auth.rateLimit(rule, {
      socketAddress: socketAddress(c),
      header: (name) => c.req.header(name),
    });
    await next();
  };
}

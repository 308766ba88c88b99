import type { MiddlewareHandler } from 'hono';
import { newId } from '../../core/ids.js';
import type { Logger } from '../../core/log.js';
import type { Services } from '../../services/index.js';
import type { AppEnv } from '../env.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Request id (the client's when well-formed), a child logger carrying it, and one access-log line. */
export function requestContext(log: Logger, services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header(REQUEST_ID_HEADER);
    const requestId = incoming && CLIENT_REQUEST_ID.test(incoming) ? incoming : newId();
    const child = log.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', child);
    c.set('services', services);
    const started = performance.now();
    try {
      await next();
    } finally {
      c.header(REQUEST_ID_HEADER, requestId);
      child.info(
        {
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  };
}

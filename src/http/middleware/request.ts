import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { newId } from '../../core/ids.js';
import type { Logger } from '../../core/log.js';
import { inQueryScope, type QueryScope, roundMs } from '../../db/query-scope.js';
import type { Services } from '../../services/index.js';
import type { AppEnv } from '../env.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Add the request id to a Response a handler built itself (not through the context). */
export function withRequestId(c: Context<AppEnv>, res: Response): Response {
  res.headers.set(REQUEST_ID_HEADER, c.get('requestId'));
  return res;
}

/**
 * Request id (the client's when well-formed), a child logger carrying it, and one access-log line.
 * With `measureQueries` the request runs in a query scope (src/db/query-scope.ts) and the line says
 * its statements and database time. It is a switch because a scope costs every request: on Node 20
 * the first scope turns on async context tracking for every promise of the process.
 */
export function requestContext(
  log: Logger,
  services: Services,
  options: { measureQueries: boolean } = { measureQueries: false },
): MiddlewareHandler<AppEnv> {
  const handle = async (c: Context<AppEnv>, next: () => Promise<void>, scope: QueryScope | undefined) => {
    const incoming = c.req.header(REQUEST_ID_HEADER);
    const requestId = incoming && CLIENT_REQUEST_ID.test(incoming) ? incoming : newId();
    const child = log.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', child);
    c.set('services', services);
    // Set before the handler runs. Under the Node server it goes on the outgoing message, which every
    // response's headers are merged into: a context header would make Hono build a `Headers` object
    // for every response, which costs more CPU than the rest of a small read's framework work. Elsewhere
    // (`app.request()`), responses built through the context (c.json …) take it for free and handlers
    // that return a Response of their own add it with `withRequestId`.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    if (outgoing) outgoing.setHeader(REQUEST_ID_HEADER, requestId);
    else c.header(REQUEST_ID_HEADER, requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      child.info(
        {
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: roundMs(performance.now() - started),
          ...(scope ? { db: { statements: scope.statements, ms: roundMs(scope.dbMs) } } : {}),
        },
        'request',
      );
    }
  };
  if (!options.measureQueries) return (c, next) => handle(c, next, undefined);
  return (c, next) =>
    inQueryScope((scope) => {
      c.set('queryScope', scope);
      return handle(c, next, scope);
    });
}

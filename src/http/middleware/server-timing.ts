import type { MiddlewareHandler } from 'hono';
import { roundMs } from '../../db/query-scope.js';
import type { AppEnv } from '../env.js';

/**
 * `Server-Timing` on REST responses (configuration `serverTiming`): the database time and number of
 * statements of the request's query scope so far, and the total time the API took to answer.
 * Work the request leaves running after its answer is not in it.
 */
export function serverTiming(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const scope = c.get('queryScope');
    const parts: string[] = [];
    if (scope) {
      const n = scope.statements;
      parts.push(`db;dur=${roundMs(scope.dbMs)};desc="${n} statement${n === 1 ? '' : 's'}"`);
    }
    parts.push(`total;dur=${roundMs(performance.now() - started)}`);
    const value = parts.join(', ');
    try {
      c.res.headers.append('Server-Timing', value);
    } catch {
      // A response with immutable headers (Response.redirect): a copy of it takes the header.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append('Server-Timing', value);
    }
  };
}

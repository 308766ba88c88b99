import type { Actor } from '../auth/actor.js';
import type { Logger } from '../core/log.js';
import type { QueryScope } from '../db/query-scope.js';
import type { Services } from '../services/index.js';

/** Per-request values every middleware and route can read. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    actor: Actor;
    services: Services;
    /** The request's query scope, when the service measures queries (see requestContext). */
    queryScope?: QueryScope;
  };
}

import { type Bindings, bind } from '../operations.js';
import type { CheckId, Target } from '../types.js';

/** The site check methods that are catalogue operations (no list of checks: all of them). */
export const SITE_OPERATIONS = {
  check: bind('checkSite', (checks?: CheckId[]) => ({ query: checks?.length ? { checks: checks.join(',') } : {} })),
  repair: bind('repairSite', (checks?: CheckId[]) => ({ body: checks?.length ? { checks } : {} })),
} satisfies Bindings<Target['site']>;

import type { Bindings } from '../operations.js';
import type { Target } from '../types.js';

/** The site check methods that are catalogue operations. */
export const SITE_OPERATIONS = {} satisfies Bindings<Target['site']>;

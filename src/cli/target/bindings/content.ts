import type { Bindings } from '../operations.js';
import type { Target } from '../types.js';

/** The content methods that are catalogue operations. */
export const CONTENT_OPERATIONS = {} satisfies Bindings<Target['content']>;

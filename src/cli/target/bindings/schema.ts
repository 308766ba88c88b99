import type { Bindings } from '../operations.js';
import type { Target } from '../types.js';

/** The schema methods that are catalogue operations. */
export const SCHEMA_OPERATIONS = {} satisfies Bindings<Target['schema']>;

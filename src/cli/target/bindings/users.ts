import type { Bindings } from '../operations.js';
import type { Target } from '../types.js';

/** The user administration methods that are catalogue operations. */
export const USERS_OPERATIONS = {} satisfies Bindings<Target['users']>;

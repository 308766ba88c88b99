import type { Bindings } from '../operations.js';
import type { Target } from '../types.js';

/** The site transfer methods that are catalogue operations. */
export const TRANSFER_OPERATIONS = {} satisfies Bindings<Target['transfer']>;
export const TRANSFER_EXPORT_OPERATIONS = {} satisfies Bindings<Target['transfer']['exports']>;
export const TRANSFER_IMPORT_OPERATIONS = {} satisfies Bindings<Target['transfer']['imports']>;

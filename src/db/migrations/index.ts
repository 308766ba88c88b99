import { migration001 } from './001_core.js';
import type { Migration } from './types.js';

/** Every migration, in order. Append only; never edit one that has shipped. */
export const migrations: Migration[] = [migration001];

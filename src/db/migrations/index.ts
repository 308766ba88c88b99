import { migration001 } from './001_core.js';
import { migration002 } from './002_content.js';
import { migration003 } from './003_identity.js';
import { migration004 } from './004_oauth.js';
import type { Migration } from './types.js';

/** Every migration, in order. Append only; never edit one that has shipped. */
export const migrations: Migration[] = [migration001, migration002, migration003, migration004];

import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

export interface Migration {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: migrations describe tables that typed code does not know yet
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

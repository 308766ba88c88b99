import type { Clock } from '../core/clock.js';
import type { CmsConfig } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { Bus } from '../db/bus.js';
import type { Kdb } from '../db/connect.js';
import type { DialectName } from '../db/dialect.js';

/** What every service is built from. Services never see a Request. */
export interface ServiceContext {
  db: Kdb;
  dialect: DialectName;
  clock: Clock;
  config: CmsConfig;
  log: Logger;
  /** Tells every process (this one included) that cached data changed; see src/db/bus.ts. */
  bus: Bus;
}

/** Run `fn` in a transaction, or inside the caller's one when `db` already is a transaction. */
export async function inTransaction<T>(db: Kdb, fn: (trx: Kdb) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}

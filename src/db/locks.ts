import { sql } from 'kysely';
import type { Kdb } from './connect.js';
import type { DialectName } from './dialect.js';

/**
 * Row locks for check-then-write rules (at most 10 passkeys, never remove the
 * last one, never demote the last Admin). On PostgreSQL the rows are locked
 * with SELECT … FOR UPDATE inside the caller's transaction; SQLite has a
 * single writer, so its transactions already run one after another.
 */
export async function lockUserRows(trx: Kdb, dialect: DialectName, userIds: string[]): Promise<void> {
  if (dialect !== 'postgres' || userIds.length === 0) return;
  await trx.selectFrom('_cms_users').select('id').where('id', 'in', userIds).orderBy('id').forUpdate().execute();
}

/** Lock every enabled Admin row (PostgreSQL), so two demotions cannot both pass the last-Admin check. */
export async function lockAdminRows(trx: Kdb, dialect: DialectName, adminLevel: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await trx
    .selectFrom('_cms_users')
    .select('id')
    .where('role', '=', adminLevel)
    .where('disabled', '=', 0)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * Serialise writers that derive the same unique value (PostgreSQL): a
 * transaction-scoped advisory lock on `key`, released at commit. Writers of
 * other keys go on in parallel.
 */
export async function lockKey(trx: Kdb, dialect: DialectName, key: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

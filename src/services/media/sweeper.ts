import type { Logger } from '../../core/log.js';
import { periodic } from '../background.js';
import { type MediaDeps, nowIso } from './deps.js';
import { keyInUse } from './rows.js';

/** How often a process looks for abandoned pending uploads. */
export const SWEEP_INTERVAL_MS = 5 * 60_000;
const BATCH = 100;

/**
 * Abandoned pending uploads (never confirmed before their expiry) are
 * removed with their bytes. Any number of processes may sweep: each row is
 * deleted with a compare-and-set on its version, so a confirmation that wins
 * the race keeps its item.
 */
export function sweeperOps(deps: MediaDeps, log: Logger) {
  const { ctx, storage } = deps;

  async function runOnce(): Promise<{ removed: number }> {
    let removed = 0;
    for (;;) {
      const due = await ctx.db
        .selectFrom('_cms_media')
        .select(['id', 'storage_key', 'version'])
        .where('status', '=', 'pending')
        .where('expires_at', '<=', nowIso(deps))
        .orderBy('expires_at')
        .limit(BATCH)
        .execute();
      for (const row of due) {
        const gone = await ctx.db
          .deleteFrom('_cms_media')
          .where('id', '=', row.id)
          .where('status', '=', 'pending')
          .where('version', '=', row.version)
          .executeTakeFirst();
        if (Number(gone.numDeletedRows) !== 1) continue;
        removed++;
        try {
          if (!(await keyInUse(ctx.db, row.storage_key))) await storage.delete(row.storage_key);
        } catch (err) {
          log.warn({ err, key: row.storage_key }, 'could not remove the bytes of an expired upload');
        }
      }
      if (due.length < BATCH) return { removed };
    }
  }

  return { runOnce, ...periodic(log, 'media sweep', SWEEP_INTERVAL_MS, runOnce) };
}

import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../core/log.js';
import { periodic } from '../background.js';
import { type MediaDeps, nowIso } from './deps.js';
import { keyInUse } from './rows.js';

/** How often a process looks for abandoned pending uploads. */
export const SWEEP_INTERVAL_MS = 5 * 60_000;
const BATCH = 100;
/**
 * A staged file not written to for this long belongs to no request: a live one is written as its
 * bytes arrive and moved into storage (or removed) seconds after the last of them. What is left is a
 * dead process's (a crash, a kill -9 mid-upload or mid-download).
 */
export const STAGED_GRACE_MS = 60 * 60_000;
const STAGED_NAME = /^[0-9A-Z]{26}\.upload$/;

/**
 * Abandoned pending uploads (never confirmed before their expiry) are
 * removed with their bytes. Any number of processes may sweep: each row is
 * deleted with a compare-and-set on its version, so a confirmation that wins
 * the race keeps its item. Staged files (uploads, import downloads, transfer
 * package files on their way in) that a dead process left in the staging
 * directory go too, once untouched for an hour.
 */
export function sweeperOps(deps: MediaDeps, log: Logger) {
  const { ctx, storage } = deps;

  async function staleStaged(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(deps.tmpDir);
    } catch {
      return 0;
    }
    // File times are the machine's: compared with the machine's clock, not the service's.
    const before = Date.now() - STAGED_GRACE_MS;
    let removed = 0;
    for (const name of names) {
      if (!STAGED_NAME.test(name)) continue;
      const path = join(deps.tmpDir, name);
      try {
        if ((await stat(path)).mtimeMs > before) continue;
        await rm(path, { force: true });
        removed++;
      } catch (err) {
        // Another process's sweep, or the request's own clean-up, took it first.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn({ err, path }, 'could not remove a staged file');
      }
    }
    return removed;
  }

  async function runOnce(): Promise<{ removed: number; staged: number }> {
    const staged = await staleStaged();
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
      if (due.length < BATCH) return { removed, staged };
    }
  }

  return { runOnce, ...periodic(log, 'media sweep', SWEEP_INTERVAL_MS, runOnce) };
}

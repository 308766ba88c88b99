import { systemActor } from '../../auth/actor.js';
import { isCmsError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { ContentDeps } from './deps.js';
import { nowIso } from './deps.js';
import { applyPublish } from './publish.js';
import { dyn, loadRowForWrite } from './rows.js';

/** How often a process looks for due entries; publication happens within this interval of its time. */
export const SCHEDULER_INTERVAL_MS = 10_000;
const BATCH = 100;

/**
 * Scheduled publishing. Any number of processes may run it: each due entry
 * is claimed with a compare-and-set on its version inside the publishing
 * transaction, so it is published exactly once, and an entry unscheduled in
 * the meantime no longer matches.
 */
export function schedulerOps(deps: ContentDeps, log: Logger) {
  const { ctx } = deps;

  async function runOnce(): Promise<{ published: number }> {
    const snap = await deps.schema.snapshot();
    const now = nowIso(deps);
    let published = 0;
    for (const c of snap.collections.values()) {
      const due: Array<{ id: string }> = await dyn(ctx.db)
        .selectFrom(c.table)
        .select('id')
        .where('scheduled_at', 'is not', null)
        .where('scheduled_at', '<=', now)
        .where('deleted_at', 'is', null)
        .orderBy('scheduled_at')
        .limit(BATCH)
        .execute();
      for (const { id } of due) {
        try {
          const done = await ctx.db.transaction().execute(async (trx) => {
            const row = await loadRowForWrite(trx, ctx.dialect, c, id);
            if (!row?.scheduled_at || row.scheduled_at > now || row.deleted_at) return false;
            await applyPublish(deps, trx, snap, c, row, systemActor, now);
            return true;
          });
          if (done) published++;
        } catch (err) {
          // A lost race (another process published it) is a REV_CONFLICT; anything else is worth a log line.
          if (!(isCmsError(err) && err.code === 'REV_CONFLICT')) {
            log.error({ err, collection: c.slug, id }, 'scheduled publish failed');
          }
        }
      }
    }
    return { published };
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  function start(intervalMs = SCHEDULER_INTERVAL_MS): void {
    if (timer) return;
    timer = setInterval(() => {
      if (running) return;
      running = runOnce()
        .catch((err) => log.error({ err }, 'scheduler run failed'))
        .finally(() => {
          running = null;
        });
    }, intervalMs);
    timer.unref();
  }

  async function stop(): Promise<void> {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  }

  return { runOnce, start, stop };
}

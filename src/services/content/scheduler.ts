import { type Actor, systemActor } from '../../auth/actor.js';
import type { RoleLevel } from '../../auth/roles.js';
import { CmsError, isCmsError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { Kdb } from '../../db/connect.js';
import { periodic } from '../background.js';
import type { CollectionInfo } from '../schema/model.js';
import { assertCanPublish } from './access.js';
import type { ContentDeps } from './deps.js';
import { nowIso } from './deps.js';
import type { EntryRow } from './model.js';
import { applyPublish } from './publish.js';
import { dyn, loadRowForWrite, updateRow } from './rows.js';
import { forgetScheduler } from './schedules.js';

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

  /** A site import writes entries and revisions separately: publishing one half-written would be wrong. */
  let paused: () => Promise<boolean> = async () => false;

  async function runOnce(): Promise<{ published: number }> {
    if (await paused()) return { published: 0 };
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
            const actor = await schedulerOf(trx, c, row);
            assertCanPublish(actor, row);
            await applyPublish(deps, trx, snap, c, row, actor, now);
            return true;
          });
          if (done) published++;
        } catch (err) {
          // A lost race (another process published it) is a REV_CONFLICT: nothing to do.
          if (isCmsError(err) && err.code === 'REV_CONFLICT') continue;
          if (!isCmsError(err)) {
            // Possibly transient (connection, deadlock): the next run tries again.
            log.error({ err, collection: c.slug, id }, 'scheduled publish failed');
            continue;
          }
          // A rule refuses it (role lowered, user disabled, a translation its scheduler may not change, a slug
          // now taken): it would fail every run, so it is cancelled and editors see an unscheduled entry.
          log.warn({ err, collection: c.slug, id }, 'scheduled publish refused; the schedule is cancelled');
          await cancelSchedule(c, id).catch((e) => log.error({ err: e, collection: c.slug, id }, 'cancel failed'));
        }
      }
    }
    return { published };
  }

  /**
   * The publication runs with the rights of the user who scheduled it, as they are now (a disabled or
   * deleted user's schedule no longer publishes). Schedules made before schedulers were recorded run
   * as the system.
   */
  async function schedulerOf(trx: Kdb, c: CollectionInfo, row: EntryRow): Promise<Actor> {
    const record = await trx
      .selectFrom('_cms_entry_schedules')
      .select('user_id')
      .where('collection_id', '=', c.id)
      .where('entry_id', '=', row.id)
      .executeTakeFirst();
    if (!record) return systemActor;
    const user = record.user_id
      ? await trx.selectFrom('_cms_users').selectAll().where('id', '=', record.user_id).executeTakeFirst()
      : undefined;
    if (!user || user.disabled) {
      throw new CmsError('INSUFFICIENT_PERMISSIONS', 'The user who scheduled this publication can no longer publish');
    }
    return { ...systemActor, userId: user.id, name: user.name, email: user.email, role: user.role as RoleLevel };
  }

  async function cancelSchedule(c: CollectionInfo, id: string): Promise<void> {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await loadRowForWrite(trx, ctx.dialect, c, id);
      if (!row?.scheduled_at) return;
      const status = row.status === 'scheduled' ? 'draft' : row.status;
      await updateRow(trx, c, row, { status, scheduled_at: null, updated_at: nowIso(deps) });
      await forgetScheduler(trx, c, id);
      await deps.hooks.runAfterWrite(trx, {
        kind: 'unschedule',
        collection: c,
        ids: [id],
        group: row.translation_group,
        actor: systemActor,
        now: nowIso(deps),
      });
    });
  }

  return {
    runOnce,
    /** Skip runs while `when` answers true (the transfer service: while an import holds the site). */
    pauseWhile(when: () => Promise<boolean>) {
      paused = when;
    },
    ...periodic(log, 'scheduler run', SCHEDULER_INTERVAL_MS, runOnce),
  };
}

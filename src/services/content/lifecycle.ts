import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { CmsError, issuesError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { retryOnUniqueRace } from '../../db/errors.js';
import { normalizeDatetime } from '../fields/datetime.js';
import { validateEntryData } from '../fields/values.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import { assertCanDeleteForever, assertCanEdit, assertCanPublish, assertVisible, canReadDrafts } from './access.js';
import { checkUniques, freeSlug } from './checks.js';
import { loadCredits, writeCredits } from './credits.js';
import { blockLookup, type ContentDeps, collectionFor, nowIso, revisionsOn } from './deps.js';
import { changeableGroups } from './group-writes.js';
import type { EntryChangeKind } from './hooks.js';
import { locksEnabled } from './locks.js';
import type { EntryRow } from './model.js';
import { applyPublish, planPublish } from './publish.js';
import { appliedSelection, applySelection, dropGroupLinks, refFields } from './references.js';
import { checkRev } from './rev.js';
import { parseRevision, requireRevision, writeRevision } from './revisions.js';
import { decodeData, dyn, encodeData, loadForWrite, loadGroup, loadRow, newEntryRow, updateRow } from './rows.js';
import { forgetScheduler, recordScheduler } from './schedules.js';

export interface GuardedInput {
  _rev?: string;
  overrideLock?: boolean;
}

type Check = 'edit' | 'publish';

const invalidState = (message: string) => new CmsError('INVALID_STATE', message);

export function lifecycleOps(deps: ContentDeps) {
  const { ctx } = deps;

  /**
   * Load, check visibility, state, permission, `_rev` and the edit lock, then run `fn` in one
   * transaction and tell the write listeners (`kind`; publishing tells them itself).
   */
  async function guarded<T>(
    actor: Actor,
    collection: string,
    id: string,
    opts: GuardedInput & { check: Check; trashed?: boolean; kind: EntryChangeKind | null },
    fn: (trx: Kdb, c: CollectionInfo, row: EntryRow, snap: SchemaSnapshot, now: string) => Promise<T>,
  ): Promise<T> {
    const { snap, c } = await collectionFor(deps, collection);
    return ctx.db.transaction().execute(async (trx) => {
      const target = await loadForWrite(trx, ctx.dialect, c, id, locksEnabled(c));
      const row = assertVisible(actor, target.row, c);
      if (opts.trashed === false && row.deleted_at) throw invalidState('The entry is in the trash; restore it first');
      if (opts.trashed === true && !row.deleted_at) throw invalidState('The entry is not in the trash');
      if (opts.check === 'publish') assertCanPublish(actor, row);
      else assertCanEdit(actor, row);
      checkRev(row, opts._rev);
      await deps.locks.guard(trx, c, id, actor, opts.overrideLock, target.lock ?? null);
      const now = nowIso(deps);
      const result = await fn(trx, c, row, snap, now);
      if (opts.kind) {
        const change = { kind: opts.kind, collection: c, ids: [id], group: row.translation_group, actor, now };
        await deps.hooks.runAfterWrite(trx, change);
      }
      return result;
    });
  }

  async function publish(actor: Actor, collection: string, id: string, input: GuardedInput = {}): Promise<void> {
    await guarded(
      actor,
      collection,
      id,
      { ...input, check: 'publish', trashed: false, kind: null },
      async (trx, c, row, snap, now) => {
        if (row.status === 'published' && !row.draft_revision_id) throw invalidState('The entry is already published');
        await applyPublish(deps, trx, snap, c, row, actor, now);
      },
    );
  }

  /** Off the live site; content and publication date stay; a pending schedule is cancelled. */
  async function unpublish(actor: Actor, collection: string, id: string, input: GuardedInput = {}): Promise<void> {
    await guarded(
      actor,
      collection,
      id,
      { ...input, check: 'publish', trashed: false, kind: 'unpublish' },
      async (trx, c, row, _s, now) => {
        if (row.status !== 'published') throw invalidState('The entry is not published');
        await updateRow(trx, c, row, { status: 'draft', scheduled_at: null, updated_at: now });
        if (row.scheduled_at) await forgetScheduler(trx, c, id);
      },
    );
  }

  async function schedule(
    actor: Actor,
    collection: string,
    id: string,
    input: GuardedInput & { scheduledAt: string },
  ): Promise<void> {
    const at = normalizeDatetime(input.scheduledAt);
    if (!at) {
      throw issuesError('Invalid schedule', [
        {
          path: ['scheduledAt'],
          code: 'invalid_datetime',
          message: 'must be an ISO 8601 date-time with Z or an offset',
        },
      ]);
    }
    if (new Date(at).getTime() <= ctx.clock.now().getTime()) {
      throw issuesError('Invalid schedule', [
        { path: ['scheduledAt'], code: 'not_future', message: 'must be in the future' },
      ]);
    }
    await guarded(
      actor,
      collection,
      id,
      { ...input, check: 'publish', trashed: false, kind: 'schedule' },
      async (trx, c, row, snap, now) => {
        if (row.status === 'published' && !row.draft_revision_id) {
          throw invalidState('The entry is already published and has no pending draft to schedule');
        }
        // Refused now rather than at the scheduled time: publishing must not reach rows the caller may not change.
        await planPublish(trx, snap, c, row, actor);
        // A published entry keeps its live version until the scheduled draft goes live.
        const status = row.status === 'published' ? 'published' : 'scheduled';
        await updateRow(trx, c, row, { status, scheduled_at: at, updated_at: now });
        await recordScheduler(trx, c, id, actor, now);
      },
    );
  }

  async function unschedule(actor: Actor, collection: string, id: string, input: GuardedInput = {}): Promise<void> {
    await guarded(
      actor,
      collection,
      id,
      { ...input, check: 'publish', trashed: false, kind: 'unschedule' },
      async (trx, c, row, _s, now) => {
        if (!row.scheduled_at) throw invalidState('The entry is not scheduled');
        const status = row.status === 'scheduled' ? 'draft' : row.status;
        await updateRow(trx, c, row, { status, scheduled_at: null, updated_at: now });
        if (row.scheduled_at) await forgetScheduler(trx, c, id);
      },
    );
  }

  /** Drop the pending draft; the live version stays. */
  async function discardDraft(actor: Actor, collection: string, id: string, input: GuardedInput = {}): Promise<void> {
    await guarded(
      actor,
      collection,
      id,
      { ...input, check: 'edit', trashed: false, kind: 'discard-draft' },
      async (trx, c, row, _s, now) => {
        if (!row.draft_revision_id) throw invalidState('The entry has no pending draft');
        const set: Record<string, unknown> = { draft_revision_id: null, updated_at: now };
        if (row.status === 'published') set.scheduled_at = null;
        await updateRow(trx, c, row, set);
        await trx.deleteFrom('_cms_revisions').where('id', '=', row.draft_revision_id).execute();
        if (set.scheduled_at === null && row.scheduled_at) await forgetScheduler(trx, c, id);
      },
    );
  }

  /** Soft delete: to the trash, off the live site, schedule cancelled. */
  async function trash(actor: Actor, collection: string, id: string, input: GuardedInput = {}): Promise<void> {
    const { c } = await collectionFor(deps, collection);
    const row = await loadRow(ctx.db, c, id);
    const check: Check = row?.status === 'published' ? 'publish' : 'edit';
    await guarded(
      actor,
      collection,
      id,
      { ...input, check, trashed: false, kind: 'trash' },
      async (trx, c2, r, _s, now) => {
        await updateRow(trx, c2, r, { deleted_at: now, scheduled_at: null, updated_at: now });
        if (r.scheduled_at) await forgetScheduler(trx, c2, id);
        await deps.locks.drop(trx, c2, id);
      },
    );
  }

  /** Back from the trash as a draft with no schedule. */
  async function restore(actor: Actor, collection: string, id: string, input: GuardedInput = {}): Promise<void> {
    await guarded(
      actor,
      collection,
      id,
      { ...input, check: 'edit', trashed: true, kind: 'restore' },
      async (trx, c, row, _s, now) => {
        const live = decodeData(c, row);
        try {
          await checkUniques(trx, ctx.dialect, c, live, row.locale, id);
        } catch {
          throw new CmsError(
            'CONFLICT',
            'Another entry now uses a unique value of this one; change it before restoring',
          );
        }
        const set = { deleted_at: null, status: 'draft', scheduled_at: null, updated_at: now };
        await updateRow(trx, c, row, set);
      },
    );
  }

  /** Removes a trashed entry for good: row, revisions, credits, lock, and links when no translation is left. */
  async function permanentDelete(
    actor: Actor,
    collection: string,
    id: string,
    input: GuardedInput = {},
  ): Promise<void> {
    assertCanDeleteForever(actor);
    await guarded(
      actor,
      collection,
      id,
      { ...input, check: 'edit', trashed: true, kind: 'delete' },
      async (trx, c, row, snap) => {
        await dyn(trx).deleteFrom(c.table).where('id', '=', id).execute();
        await trx.deleteFrom('_cms_revisions').where('collection_id', '=', c.id).where('entry_id', '=', id).execute();
        await trx
          .deleteFrom('_cms_entry_bylines')
          .where('collection_id', '=', c.id)
          .where('entry_id', '=', id)
          .execute();
        if (row.scheduled_at) await forgetScheduler(trx, c, id);
        await deps.locks.drop(trx, c, id);
        if (!(await loadGroup(trx, c, row.translation_group)).length) {
          await dropGroupLinks(trx, snap, c, row.translation_group);
        }
      },
    );
  }

  /**
   * A new draft with the same values (re-validated: a value an earlier release
   * stored unsafely is refused), a unique slug, the same credits, and the
   * reference selections whose relations allow one more parent.
   */
  async function duplicate(actor: Actor, collection: string, id: string): Promise<EntryRow> {
    requirePermission(actor, 'content:create');
    const { snap, c } = await collectionFor(deps, collection);
    // The copy's slug is generated: on a lost race with another writer, try the next free one.
    return retryOnUniqueRace(() =>
      ctx.db.transaction().execute(async (trx) => {
        const src = assertVisible(actor, await loadRow(trx, c, id), c);
        const draftRow =
          canReadDrafts(actor) && src.draft_revision_id
            ? await trx
                .selectFrom('_cms_revisions')
                .selectAll()
                .where('id', '=', src.draft_revision_id)
                .executeTakeFirst()
            : undefined;
        const values = { ...decodeData(c, src), ...(draftRow ? parseRevision(draftRow).data : {}) };
        const data = validateEntryData(c.fields, values, { mode: 'create', blockTypes: blockLookup(snap) });
        const now = nowIso(deps);
        const newIdValue = newId();
        const group = newId();
        const slug = src.slug ? await freeSlug(trx, ctx.dialect, c, `${src.slug}-copy`, src.locale) : null;
        const uniqueFree: Record<string, unknown> = { ...data };
        for (const f of c.fields) if (f.unique) delete uniqueFree[f.slug];
        const row = newEntryRow({ id: newIdValue, slug, locale: src.locale, group, authorId: actor.userId, now });
        // Unique values cannot be shared, so the copy starts without them.
        await dyn(trx)
          .insertInto(c.table)
          .values({ ...row, ...encodeData(ctx.dialect, c, uniqueFree) })
          .execute();
        const credits = await loadCredits(trx, c, src.id);
        if (credits.length) {
          row.primary_byline_id = await writeCredits(trx, c, newIdValue, credits);
          await dyn(trx)
            .updateTable(c.table)
            .set({ primary_byline_id: row.primary_byline_id })
            .where('id', '=', newIdValue)
            .execute();
        }
        // A relation that allows one parent cannot give its children to the copy too.
        for (const rf of refFields(snap, c)) {
          if (!rf.relation.multiple) continue;
          let selection = await appliedSelection(trx, rf, src.translation_group);
          // From a child end the copy joins other entries' selections: only those the caller may change.
          if (rf.side === 'child') selection = await changeableGroups(trx, actor, rf.other, selection);
          if (selection.length) await applySelection(trx, rf, group, selection, now);
        }
        if (revisionsOn(c)) await writeRevision(trx, c, newIdValue, { slug, data: uniqueFree }, 'save', actor, now);
        await deps.hooks.runAfterWrite(trx, {
          kind: 'duplicate',
          collection: c,
          ids: [newIdValue],
          group,
          duplicateOf: src.id,
          actor,
          now,
        });
        return row;
      }),
    );
  }

  /** Bring back the values of a stored revision (staged as a draft when the entry is live). */
  async function restoreRevision(
    actor: Actor,
    collection: string,
    id: string,
    revisionId: string,
    input: GuardedInput = {},
  ): Promise<void> {
    await guarded(
      actor,
      collection,
      id,
      { ...input, check: 'edit', trashed: false, kind: 'restore-revision' },
      async (trx, c, row, snap, now) => {
        const rev = parseRevision(await requireRevision(trx, c, id, revisionId));
        const data = validateEntryData(c.fields, filterKnown(c, rev.data), {
          mode: 'create',
          blockTypes: blockLookup(snap),
        });
        const staging = row.status === 'published' || row.draft_revision_id !== null;
        const set: Record<string, unknown> = { updated_at: now };
        if (staging) {
          set.draft_revision_id = await writeRevision(
            trx,
            c,
            id,
            { slug: rev.slug, data, refs: rev.refs },
            'restore',
            actor,
            now,
          );
        } else {
          Object.assign(set, encodeData(ctx.dialect, c, data), { slug: rev.slug });
          await writeRevision(trx, c, id, { slug: rev.slug, data }, 'restore', actor, now);
        }
        if (rev.bylines) set.primary_byline_id = await writeCredits(trx, c, id, rev.bylines);
        await updateRow(trx, c, row, set);
      },
    );
  }

  return {
    publish,
    unpublish,
    schedule,
    unschedule,
    discardDraft,
    trash,
    restore,
    permanentDelete,
    duplicate,
    restoreRevision,
  };
}

/** Revision data may name fields deleted since; keep the ones the collection still has. */
function filterKnown(c: CollectionInfo, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of c.fields) if (f.column && Object.hasOwn(data, f.slug)) out[f.slug] = data[f.slug];
  return out;
}

export type LifecycleOps = ReturnType<typeof lifecycleOps>;

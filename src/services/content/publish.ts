import type { Actor } from '../../auth/actor.js';
import { issuesError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import { checkUniques } from './checks.js';
import { type ContentDeps, revisionsOn } from './deps.js';
import { deniedRows, groupWriteRefused, rowsTouchedBySelections } from './group-writes.js';
import type { EntryRow, StagedRefs } from './model.js';
import { appliedSelection, applySelection, checkLimits, refFields } from './references.js';
import { parseRevision, pruneRevisions, writeRevision } from './revisions.js';
import { decodeData, encodeData, slugTaken, updateRow } from './rows.js';
import { forgetScheduler } from './schedules.js';
import { applySyncSteps, planSync, syncReach } from './sync.js';

/** The pending draft of an entry, parsed; undefined when it has none. */
async function loadDraft(trx: Kdb, row: EntryRow) {
  if (!row.draft_revision_id) return undefined;
  const draftRow = await trx
    .selectFrom('_cms_revisions')
    .selectAll()
    .where('id', '=', row.draft_revision_id)
    .executeTakeFirst();
  return draftRow ? parseRevision(draftRow) : undefined;
}

/** Staged selections that differ from the applied ones, re-checked against the relation limits. */
async function stagedChanges(
  trx: Kdb,
  snap: SchemaSnapshot,
  c: CollectionInfo,
  group: string,
  staged: StagedRefs,
): Promise<StagedRefs> {
  const out: StagedRefs = {};
  for (const rf of refFields(snap, c)) {
    // Publishing re-checks every selection of the entry, staged or applied, against the relation limits.
    const selection = staged[rf.field.slug] ?? (await appliedSelection(trx, rf, group));
    await checkLimits(trx, rf, group, selection, ['references', rf.field.slug]);
    if (staged[rf.field.slug]) out[rf.field.slug] = selection;
  }
  return out;
}

/**
 * What publishing an entry would write beyond the entry itself — the staged
 * reference selections (shared by the translation group, and joining other
 * entries' selections from a child end) and the shared values copied to the
 * other translations — checked against the caller's rights on every row it
 * reaches. Used by publish, and by schedule so the refusal comes up front.
 */
export async function planPublish(trx: Kdb, snap: SchemaSnapshot, c: CollectionInfo, row: EntryRow, actor: Actor) {
  const draft = await loadDraft(trx, row);
  const live = { ...decodeData(c, row), ...(draft?.data ?? {}) };
  const refs = await stagedChanges(trx, snap, c, row.translation_group, draft?.refs ?? {});
  const sync = await planSync(trx, c, row, live);
  const reach = [
    ...(await rowsTouchedBySelections(trx, c, refFields(snap, c), row.translation_group, refs)),
    ...syncReach(c, sync),
  ];
  const denied = deniedRows(actor, reach);
  if (denied.length) throw groupWriteRefused('Publishing this entry', denied);
  return { draft, live, refs, sync };
}

/**
 * Make an entry live: its pending draft (or its current values) become the
 * live version; staged reference selections are applied; shared values follow
 * to the other translations (all checked by planPublish first).
 * Used by the publish operation and by the scheduler.
 */
export async function applyPublish(
  deps: ContentDeps,
  trx: Kdb,
  snap: SchemaSnapshot,
  c: CollectionInfo,
  row: EntryRow,
  actor: Actor,
  now: string,
): Promise<void> {
  const { ctx } = deps;
  const { draft, live, refs, sync } = await planPublish(trx, snap, c, row, actor);
  const slug = draft ? draft.slug : row.slug;
  if (draft && slug && slug !== row.slug && (await slugTaken(trx, c, slug, row.locale, row.id))) {
    throw issuesError('Cannot publish', [{ path: ['slug'], code: 'not_unique', message: `slug "${slug}" is taken` }]);
  }
  if (draft) await checkUniques(trx, ctx.dialect, c, draft.data, row.locale, row.id);
  await deps.hooks.runBeforeSave({
    collection: c.slug,
    operation: 'publish',
    entryId: row.id,
    locale: row.locale,
    data: live,
    actor,
  });
  const fields = refFields(snap, c);
  for (const [slug, selection] of Object.entries(refs)) {
    const rf = fields.find((f) => f.field.slug === slug);
    if (rf) await applySelection(trx, rf, row.translation_group, selection, now);
  }

  const set: Record<string, unknown> = {
    ...(draft ? encodeData(ctx.dialect, c, live) : {}),
    slug,
    status: 'published',
    published_at: row.published_at ?? now,
    scheduled_at: null,
    draft_revision_id: null,
    updated_at: now,
  };
  if (revisionsOn(c)) {
    set.live_revision_id =
      row.draft_revision_id ?? (await writeRevision(trx, c, row.id, { slug, data: live }, 'publish', actor, now));
  }
  await updateRow(trx, c, row, set);
  if (row.scheduled_at) await forgetScheduler(trx, c, row.id);
  await deps.hooks.runAfterWrite(trx, {
    kind: 'publish',
    collection: c,
    ids: [row.id],
    group: row.translation_group,
    actor,
    now,
  });
  await applySyncSteps(deps, trx, c, row, sync, actor, now);
  if (revisionsOn(c)) await pruneRevisions(trx, c, row.id, [set.live_revision_id as string], row.version + 1);
}

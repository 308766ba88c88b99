import type { Actor } from '../../auth/actor.js';
import { issuesError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import { checkUniques } from './checks.js';
import { type ContentDeps, revisionsOn } from './deps.js';
import type { EntryRow, StagedRefs } from './model.js';
import { appliedSelection, applySelection, checkLimits, refFields } from './references.js';
import { parseRevision, pruneRevisions, writeRevision } from './revisions.js';
import { decodeData, encodeData, slugTaken, updateRow } from './rows.js';
import { syncNonTranslatable } from './sync.js';

/**
 * Make an entry live: its pending draft (or its current values) become the
 * live version; staged reference selections are re-checked against the
 * relation limits and applied; shared values follow to the other translations.
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
  const draftRow = row.draft_revision_id
    ? await trx.selectFrom('_cms_revisions').selectAll().where('id', '=', row.draft_revision_id).executeTakeFirst()
    : undefined;
  const draft = draftRow ? parseRevision(draftRow) : undefined;
  const live = { ...decodeData(c, row), ...(draft?.data ?? {}) };
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
  await applyStagedRefs(trx, snap, c, row.translation_group, draft?.refs ?? {}, now);

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
  await syncNonTranslatable(trx, ctx.dialect, c, row, live, now);
  if (revisionsOn(c)) await pruneRevisions(trx, c, row.id, [set.live_revision_id as string]);
}

/** Publishing re-checks every selection of the entry, staged or applied, against the relation limits. */
async function applyStagedRefs(
  trx: Kdb,
  snap: SchemaSnapshot,
  c: CollectionInfo,
  group: string,
  staged: StagedRefs,
  now: string,
) {
  for (const rf of refFields(snap, c)) {
    const selection = staged[rf.field.slug] ?? (await appliedSelection(trx, rf, group));
    await checkLimits(trx, rf, group, selection, ['references', rf.field.slug]);
    if (staged[rf.field.slug]) await applySelection(trx, rf, group, selection, now);
  }
}

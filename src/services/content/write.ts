import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { CmsError, issuesError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import { retryOnUniqueRace } from '../../db/errors.js';
import { validateEntryData } from '../fields/values.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import { assertCanEdit, assertVisible, canPublish } from './access.js';
import { checkUniques, claimSlug, freeSlug, slugSource } from './checks.js';
import { loadCredits, writeCredits } from './credits.js';
import { blockLookup, type ContentDeps, collectionFor, localeOf, nowIso, revisionsOn } from './deps.js';
import { deniedRows, groupWriteRefused, rowsTouchedBySelections } from './group-writes.js';
import { locksEnabled } from './locks.js';
import type { CreditInput, EntryRow, StagedRefs } from './model.js';
import { applySelection, checkLimits, groupsForIds, MAX_REFERENCE_IDS, refFields } from './references.js';
import { checkRev } from './rev.js';
import { parseRevision, pruneRevisions, writeRevision } from './revisions.js';
import { decodeData, dyn, encodeData, loadForWrite, loadRow, newEntryRow, updateRow } from './rows.js';
import { sharedValues, syncGroup } from './sync.js';

export interface CreateInput {
  data?: Record<string, unknown>;
  slug?: string | null;
  locale?: string;
  translationOf?: string;
  references?: Record<string, string[]>;
  bylines?: CreditInput[];
  /** Taxonomy → term IDs or slugs, applied in the same transaction (EntryChange.terms). */
  terms?: Record<string, string[]>;
}

export interface UpdateInput {
  data?: Record<string, unknown>;
  slug?: string | null;
  references?: Record<string, string[]>;
  bylines?: CreditInput[];
  _rev?: string;
  overrideLock?: boolean;
  /** Taxonomy → term IDs or slugs, applied in the same transaction (EntryChange.terms). */
  terms?: Record<string, string[]>;
}

/** Resolve a `references` body to translation groups per field, checking fields and limits. */
async function resolveReferences(
  trx: Kdb,
  snap: SchemaSnapshot,
  c: CollectionInfo,
  group: string,
  input: Record<string, string[]> | undefined,
): Promise<StagedRefs> {
  const out: StagedRefs = {};
  if (!input) return out;
  const fields = refFields(snap, c);
  for (const [slug, ids] of Object.entries(input)) {
    const rf = fields.find((f) => f.field.slug === slug);
    if (!rf) {
      throw issuesError('Invalid references', [
        {
          path: ['references', slug],
          code: 'unknown_field',
          message: `"${slug}" is not a reference field bound to a relation`,
        },
      ]);
    }
    if (ids.length > MAX_REFERENCE_IDS) {
      throw issuesError('Invalid references', [
        { path: ['references', slug], code: 'too_big', message: `at most ${MAX_REFERENCE_IDS} entry IDs per field` },
      ]);
    }
    const groups = await groupsForIds(trx, rf, ids, ['references', slug]);
    await checkLimits(trx, rf, group, groups, ['references', slug]);
    out[slug] = groups;
  }
  return out;
}

async function applyRefs(
  trx: Kdb,
  snap: SchemaSnapshot,
  c: CollectionInfo,
  group: string,
  refs: StagedRefs,
  now: string,
) {
  const fields = refFields(snap, c);
  for (const [slug, groups] of Object.entries(refs)) {
    const rf = fields.find((f) => f.field.slug === slug);
    if (rf) await applySelection(trx, rf, group, groups, now);
  }
}

/**
 * Reference selections are keyed by translation group, so writing them
 * changes every translation (and, on a child end, other entries' selections).
 * They go live now only when the caller may change every row they touch;
 * otherwise they wait in the entry's draft (collections with revisions) until
 * someone allowed publishes it, or the write is refused.
 */
async function refsMode(
  trx: Kdb,
  actor: Actor,
  snap: SchemaSnapshot,
  c: CollectionInfo,
  group: string,
  refs: StagedRefs,
  canStage: boolean,
): Promise<'apply' | 'stage'> {
  if (!Object.keys(refs).length) return 'apply';
  const denied = deniedRows(actor, await rowsTouchedBySelections(trx, c, refFields(snap, c), group, refs));
  if (!denied.length) return 'apply';
  if (canStage) return 'stage';
  throw groupWriteRefused('This reference selection', denied);
}

export function writeOps(deps: ContentDeps) {
  const { ctx } = deps;

  async function create(actor: Actor, collection: string, input: CreateInput): Promise<EntryRow> {
    requirePermission(actor, 'content:create');
    const { snap, c } = await collectionFor(deps, collection);
    const locale = localeOf(deps, input.locale);
    // A generated slug can lose a race with a concurrent create (PostgreSQL): try again with the next one.
    const attempt = () =>
      ctx.db.transaction().execute(async (trx) => {
        const now = nowIso(deps);
        let group = newId();
        let base: Record<string, unknown> = {};
        let slug = input.slug ?? null;
        let credits = input.bylines;
        if (input.translationOf) {
          const source = assertVisible(actor, await loadRow(trx, c, input.translationOf), c);
          const sibling = await dyn(trx)
            .selectFrom(c.table)
            .select('id')
            .where('translation_group', '=', source.translation_group)
            .where('locale', '=', locale)
            .executeTakeFirst();
          if (sibling)
            throw new CmsError('ALREADY_EXISTS', `The entry already has a ${locale} translation (${sibling.id})`);
          group = source.translation_group;
          base = sharedValues(c, source);
          if (input.slug === undefined && source.slug) slug = `${source.slug}-${locale}`;
          credits ??= await loadCredits(trx, c, source.id);
        }
        // Non-translatable values come from the source: they are one value across the group.
        const data = validateEntryData(
          c.fields,
          { ...(input.data ?? {}), ...base },
          { mode: 'create', blockTypes: blockLookup(snap) },
        );
        const publishNow =
          !c.supports.includes('drafts') && !input.translationOf && canPublish(actor, { author_id: actor.userId });
        slug = slug ? await claimSlug(trx, c, slug, locale) : await autoSlug(trx, ctx.dialect, c, data, locale);
        await checkUniques(trx, ctx.dialect, c, data, locale);
        await deps.hooks.runBeforeSave({ collection: c.slug, operation: 'create', entryId: null, locale, data, actor });
        const id = newId();
        const refs = await resolveReferences(trx, snap, c, group, input.references);
        const row = newEntryRow({ id, slug, locale, group, authorId: actor.userId, now, published: publishNow });
        await dyn(trx)
          .insertInto(c.table)
          .values({ ...row, ...encodeData(ctx.dialect, c, data) })
          .execute();
        if (credits) row.primary_byline_id = await writeCredits(trx, c, id, credits);
        // A new entry is live at once only in a collection without drafts; its selections cannot wait then.
        const mode = await refsMode(trx, actor, snap, c, group, refs, revisionsOn(c) && !publishNow);
        if (mode === 'apply') await applyRefs(trx, snap, c, group, refs, now);
        if (revisionsOn(c)) {
          const snapshot = { slug, data, bylines: credits ?? null, ...(mode === 'stage' ? { refs } : {}) };
          const kind = publishNow ? 'publish' : mode === 'stage' ? 'draft' : 'save';
          const revId = await writeRevision(trx, c, id, snapshot, kind, actor, now);
          if (publishNow) row.live_revision_id = revId;
          if (mode === 'stage') row.draft_revision_id = revId;
        }
        if (row.primary_byline_id || row.live_revision_id || row.draft_revision_id) {
          await dyn(trx)
            .updateTable(c.table)
            .set({
              primary_byline_id: row.primary_byline_id,
              live_revision_id: row.live_revision_id,
              draft_revision_id: row.draft_revision_id,
            })
            .where('id', '=', id)
            .execute();
        }
        // A new entry shares nothing yet: a translation takes the group's shared values (above) and starts as a draft.
        await deps.hooks.runAfterWrite(trx, {
          kind: 'create',
          collection: c,
          ids: [id],
          group,
          translationOf: input.translationOf,
          terms: input.terms,
          actor,
          now,
        });
        return row;
      });
    return input.slug ? attempt() : retryOnUniqueRace(attempt);
  }

  /**
   * Partial update. On a collection with revisions, an entry with a live
   * version (or a pending draft) gets its changes staged in a draft revision
   * while the live version stays; otherwise the values are written in place.
   */
  async function update(actor: Actor, collection: string, id: string, input: UpdateInput): Promise<void> {
    const { snap, c } = await collectionFor(deps, collection);
    return ctx.db.transaction().execute(async (trx) => {
      const target = await loadForWrite(trx, ctx.dialect, c, id, locksEnabled(c));
      const row = assertVisible(actor, target.row, c);
      if (row.deleted_at) throw new CmsError('INVALID_STATE', 'The entry is in the trash; restore it before editing');
      assertCanEdit(actor, row);
      checkRev(row, input._rev);
      await deps.locks.guard(trx, c, id, actor, input.overrideLock, target.lock ?? null);
      const now = nowIso(deps);
      let staging = revisionsOn(c) && (row.status === 'published' || row.draft_revision_id !== null);
      if (!staging && row.status === 'published' && !canPublish(actor, row)) {
        throw new CmsError(
          'INSUFFICIENT_PERMISSIONS',
          'Changing a published entry of this collection needs the right to publish',
        );
      }
      const draftRev =
        staging && row.draft_revision_id
          ? await trx
              .selectFrom('_cms_revisions')
              .selectAll()
              .where('id', '=', row.draft_revision_id)
              .executeTakeFirst()
          : undefined;
      const draft = draftRev ? parseRevision(draftRev) : undefined;
      const current = { ...decodeData(c, row), ...(draft?.data ?? {}) };
      const currentSlug = draft ? draft.slug : row.slug;
      const changes = validateEntryData(c.fields, input.data ?? {}, {
        mode: 'update',
        blockTypes: blockLookup(snap),
        previous: current,
      });
      const next = { ...current, ...changes };
      let slug = currentSlug;
      if (input.slug !== undefined && input.slug !== currentSlug) {
        slug = input.slug === null ? null : await claimSlug(trx, c, input.slug, row.locale, id);
      }
      await checkUniques(trx, ctx.dialect, c, changes, row.locale, id);
      await deps.hooks.runBeforeSave({
        collection: c.slug,
        operation: 'update',
        entryId: id,
        locale: row.locale,
        data: next,
        actor,
      });
      const refs = await resolveReferences(trx, snap, c, row.translation_group, input.references);
      if (!staging)
        staging = (await refsMode(trx, actor, snap, c, row.translation_group, refs, revisionsOn(c))) === 'stage';
      const set: Record<string, unknown> = { updated_at: now };
      if (input.bylines) set.primary_byline_id = await writeCredits(trx, c, id, input.bylines);
      const credits = input.bylines ?? null;

      if (staging) {
        const stagedRefs = { ...(draft?.refs ?? {}), ...refs };
        set.draft_revision_id = await writeRevision(
          trx,
          c,
          id,
          { slug, data: next, refs: stagedRefs, bylines: credits },
          'draft',
          actor,
          now,
        );
      } else {
        Object.assign(set, encodeData(ctx.dialect, c, changes));
        set.slug = slug;
        await applyRefs(trx, snap, c, row.translation_group, refs, now);
        if (revisionsOn(c)) await writeRevision(trx, c, id, { slug, data: next, bylines: credits }, 'save', actor, now);
      }
      await updateRow(trx, c, row, set);
      await deps.hooks.runAfterWrite(trx, {
        kind: 'update',
        collection: c,
        ids: [id],
        group: row.translation_group,
        previous: { [id]: current },
        terms: input.terms,
        actor,
        now,
      });
      // Without revisions a save of a published entry is live at once, so shared values follow to the other
      // translations; a draft's shared values follow when it is published (by someone allowed to).
      if (!revisionsOn(c) && row.status === 'published') await syncGroup(deps, trx, c, row, next, actor, now);
      if (revisionsOn(c)) {
        await pruneRevisions(
          trx,
          c,
          id,
          [row.live_revision_id, (set.draft_revision_id as string) ?? row.draft_revision_id],
          row.version + 1,
        );
      }
    });
  }

  return { create, update, resolveReferences, applyRefs };
}

/** Slug from the display title, made unique in its locale; null when there is nothing to derive it from. */
async function autoSlug(
  trx: Kdb,
  dialect: DialectName,
  c: CollectionInfo,
  data: Record<string, unknown>,
  locale: string,
): Promise<string | null> {
  const source = slugSource(c, data);
  return source ? freeSlug(trx, dialect, c, source, locale) : null;
}

export type WriteOps = ReturnType<typeof writeOps>;

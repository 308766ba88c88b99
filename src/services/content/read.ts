import { isDeepStrictEqual } from 'node:util';
import { type Actor, can } from '../../auth/actor.js';
import { notFound } from '../../core/errors.js';
import type { CollectionInfo } from '../schema/model.js';
import { canEdit, canReadDrafts, requireDraftReader, requireReader, visible } from './access.js';
import { type ContentDeps, collectionFor, fallbackChain, localeOf, readScope } from './deps.js';
import type { ContentItem, ReferencePage } from './model.js';
import { draftRefsOf, type ReadRow, readRowById, selectForRead, toItem } from './present.js';
import type { PreviewOps } from './preview.js';
import {
  pagesFor,
  parseLinkCursor,
  type RefField,
  readLinks,
  readStaged,
  refFieldOf,
  refFields,
} from './references.js';
import { revOf } from './rev.js';
import { listRevisions, parseRevision, type RevisionView } from './revisions.js';
import { decodeData, dyn, loadRow } from './rows.js';

/** Draft readers see pending drafts; a writer without draft access sees those of the entries it may edit. */
const seesDraft = (actor: Actor, row: ReadRow) => canReadDrafts(actor) || canEdit(actor, row);

/** Database IDs are ULIDs; anything else addresses an entry by slug. */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export interface GetOptions {
  locale?: string;
  /** A preview token (docs/frontends.md): the read answers the token's entry with its draft, or is refused. */
  preview?: string;
}

/** How a read shows an entry: whether the pending draft, and whether other entries' drafts (linked ones). */
interface View {
  draft: boolean;
  draftReader: boolean;
}

export function readOps(deps: ContentDeps, preview: PreviewOps) {
  const { ctx } = deps;

  const referenceRoute = (c: CollectionInfo, id: string) => (field: string, cursor: string) =>
    `/content/${c.slug}/${id}/references/${field}?cursor=${cursor}`;

  /** Find the row: by ID, or by slug along the fallback chain (published entries only for non-draft readers). */
  async function find(
    actor: Actor,
    c: CollectionInfo,
    idOrSlug: string,
    locale: string | undefined,
  ): Promise<ReadRow | undefined> {
    const drafts = canReadDrafts(actor);
    // A writer without draft access (a content:write token without content:read) still reads what it may edit.
    const withDraft = drafts || can(actor, 'content:create');
    const base = () => selectForRead(ctx.db, ctx.dialect, c, drafts);
    const visibleRow = (row: ReadRow | undefined) => (row && visible(actor, row) ? row : undefined);
    if (ULID.test(idOrSlug)) {
      const version = (await deps.schema.snapshot()).version;
      const byId = visibleRow(await readRowById(ctx.db, ctx.dialect, c, version, withDraft, idOrSlug));
      if (byId) return byId;
    }
    for (const loc of fallbackChain(deps, localeOf(deps, locale))) {
      let q = base().where(`${c.table}.locale`, '=', loc).where(`${c.table}.slug`, '=', idOrSlug);
      if (!drafts) q = q.where(`${c.table}.status`, '=', 'published').where(`${c.table}.deleted_at`, 'is', null);
      const row = visibleRow(await q.executeTakeFirst());
      if (row) return row;
    }
    return undefined;
  }

  /** References of one entry: the staged selection for those who see its draft, where the draft carries one. */
  async function references(
    c: CollectionInfo,
    row: ReadRow,
    fields: RefField[],
    view: View,
  ): Promise<Record<string, ReferencePage>> {
    if (!fields.length) return {};
    const scope = readScope(deps, row.locale, view.draftReader);
    const staged = view.draft ? (draftRefsOf(row) ?? {}) : {};
    const appliedFields = fields.filter((f) => !staged[f.field.slug]);
    const rows = await readLinks(ctx.db, appliedFields, [row.translation_group], scope);
    const out = pagesFor(appliedFields, rows.get(row.translation_group), referenceRoute(c, row.id));
    for (const rf of fields) {
      if (staged[rf.field.slug]) out[rf.field.slug] = await readStaged(ctx.db, rf, staged[rf.field.slug], scope);
    }
    return out;
  }

  async function get(
    actor: Actor,
    collection: string,
    idOrSlug: string,
    opts: GetOptions = {},
  ): Promise<{ item: ContentItem; _rev: string }> {
    if (opts.preview !== undefined) return previewed(opts.preview, collection, idOrSlug, opts.locale);
    requireReader(actor);
    const { snap, c } = await collectionFor(deps, collection);
    const row = await find(actor, c, idOrSlug, opts.locale);
    if (!row) throw notFound(`Entry "${idOrSlug}" in "${c.slug}"`);
    const view = { draft: seesDraft(actor, row), draftReader: canReadDrafts(actor) };
    const refs = await references(c, row, refFields(snap, c), view);
    return { item: toItem(c, row, { showDraft: view.draft, references: refs }), _rev: revOf(row) };
  }

  /**
   * A read with a preview token, whoever calls (anonymous included): the
   * token's entry with its pending draft, as the admin shows it, and linked
   * entries as the public site sees them. The token grants nothing else.
   */
  async function previewed(token: string, collection: string, idOrSlug: string, locale: string | undefined) {
    const { snap, c, row } = await preview.entryFor(token, collection, idOrSlug, locale);
    const refs = await references(c, row, refFields(snap, c), { draft: true, draftReader: false });
    return { item: toItem(c, row, { showDraft: true, references: refs }), _rev: revOf(row) };
  }

  /** The next page of one reference field (link traversal; outside the documented contract). */
  async function referencePage(
    actor: Actor,
    collection: string,
    id: string,
    field: string,
    cursor: string | undefined,
  ): Promise<ReferencePage> {
    requireReader(actor);
    const { snap, c } = await collectionFor(deps, collection);
    const row = await find(actor, c, id, undefined);
    if (!row) throw notFound(`Entry in "${c.slug}"`);
    const rf = refFieldOf(refFields(snap, c), field);
    const scope = readScope(deps, row.locale, canReadDrafts(actor));
    const rows = await readLinks(ctx.db, [rf], [row.translation_group], scope, undefined, parseLinkCursor(cursor));
    return pagesFor([rf], rows.get(row.translation_group), referenceRoute(c, row.id))[field];
  }

  /** Live versus pending draft, with the fields that differ. */
  async function compare(actor: Actor, collection: string, id: string) {
    requireDraftReader(actor);
    const { c } = await collectionFor(deps, collection);
    const row = await loadRow(ctx.db, c, id);
    if (!row) throw notFound(`Entry in "${c.slug}"`);
    const columns = { slug: row.slug, data: decodeData(c, row) };
    const everLive = row.status === 'published' || row.live_revision_id !== null || row.published_at !== null;
    const live = everLive ? columns : null;
    let draft: { slug: string | null; data: Record<string, unknown> } | null = null;
    if (row.draft_revision_id) {
      const rev = await ctx.db
        .selectFrom('_cms_revisions')
        .selectAll()
        .where('id', '=', row.draft_revision_id)
        .executeTakeFirst();
      if (rev) {
        const parsed = parseRevision(rev);
        draft = { slug: parsed.slug, data: { ...columns.data, ...parsed.data } };
      }
    } else if (!everLive) {
      draft = columns;
    }
    const changedFields =
      live && draft
        ? c.fields
            .filter((f) => f.column && !isDeepStrictEqual(live.data[f.slug], draft.data[f.slug]))
            .map((f) => f.slug)
        : [];
    if (live && draft && live.slug !== draft.slug) changedFields.unshift('slug');
    return {
      id: row.id,
      status: row.status,
      hasDraft: row.draft_revision_id !== null,
      live,
      draft,
      changedFields,
      _rev: revOf(row),
    };
  }

  /** Every locale variant of the entry's translation group (published ones only for non-draft readers). */
  async function translations(actor: Actor, collection: string, idOrSlug: string, opts: GetOptions = {}) {
    requireReader(actor);
    const { c } = await collectionFor(deps, collection);
    const row = await find(actor, c, idOrSlug, opts.locale);
    if (!row) throw notFound(`Entry "${idOrSlug}" in "${c.slug}"`);
    let q = dyn(ctx.db)
      .selectFrom(c.table)
      .select(['id', 'slug', 'locale', 'status', 'deleted_at', 'updated_at'])
      .where('translation_group', '=', row.translation_group);
    if (!canReadDrafts(actor)) q = q.where('status', '=', 'published').where('deleted_at', 'is', null);
    const rows: Array<{
      id: string;
      slug: string | null;
      locale: string;
      status: string;
      deleted_at: string | null;
      updated_at: string;
    }> = await q.orderBy('locale').execute();
    return {
      translationGroup: row.translation_group,
      items: rows.map((r) => ({
        id: r.id,
        slug: r.slug,
        locale: r.locale,
        status: r.deleted_at ? 'trashed' : r.status,
        updatedAt: r.updated_at,
      })),
    };
  }

  /** Users who authored entries of the collection, with their entry counts. */
  async function authors(actor: Actor, collection: string) {
    requireReader(actor);
    const { c } = await collectionFor(deps, collection);
    let q = dyn(ctx.db)
      .selectFrom(`${c.table} as t`)
      .innerJoin('_cms_users as u', 'u.id', 't.author_id')
      .select([
        'u.id as id',
        'u.name as name',
        (eb: { fn: { countAll: () => { as: (n: string) => unknown } } }) => eb.fn.countAll().as('count'),
      ])
      .where('t.deleted_at', 'is', null)
      .groupBy(['u.id', 'u.name']);
    if (!canReadDrafts(actor)) q = q.where('t.status', '=', 'published');
    const rows: Array<{ id: string; name: string | null; count: number }> = await q
      .orderBy('u.name')
      .limit(1000)
      .execute();
    return { items: rows.map((r) => ({ id: r.id, name: r.name, count: Number(r.count) })) };
  }

  async function revisions(
    actor: Actor,
    collection: string,
    id: string,
    opts: { cursor?: string; limit?: number } = {},
  ): Promise<{ items: RevisionView[]; nextCursor?: string }> {
    requireDraftReader(actor);
    const { c } = await collectionFor(deps, collection);
    const row = await loadRow(ctx.db, c, id);
    if (!row) throw notFound(`Entry in "${c.slug}"`);
    return listRevisions(ctx.db, c, id, { live: row.live_revision_id, draft: row.draft_revision_id }, opts);
  }

  return { get, referencePage, compare, translations, authors, revisions };
}

export type ReadOps = ReturnType<typeof readOps>;

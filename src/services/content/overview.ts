import { sql } from 'kysely';
import { type Actor, can } from '../../auth/actor.js';
import { ROLES } from '../../auth/roles.js';
import { validationError } from '../../core/errors.js';
import type { CollectionInfo } from '../schema/model.js';
import { blockTypeView, fieldView } from '../schema/present.js';
import { canReadDrafts, requireDraftReader } from './access.js';
import { type ContentDeps, collectionFor, localeOf } from './deps.js';
import { titleColumn } from './references.js';
import { dyn } from './rows.js';

/**
 * What the admin needs around the entries themselves: the content model as a
 * writer sees it (Contributors and Authors may not read the schema API, yet
 * must know the fields they fill in), counts for the sidebar, the dashboard's
 * short lists and the reference picker's lookup. Every query here is bounded
 * and walks an index of the entry table.
 */

export interface StatusCounts {
  all: number;
  draft: number;
  published: number;
  scheduled: number;
  trashed: number;
}

export interface EntrySummary {
  collection: string;
  id: string;
  slug: string | null;
  title: string | null;
  status: string;
  locale: string;
  translationGroup: string;
  authorId: string | null;
  authorName: string | null;
  updatedAt: string;
  scheduledAt: string | null;
}

const SHORT_LIST = 8;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text a client may send as a search term: no NUL (PostgreSQL refuses it), no lone surrogates. */
export function checkTerm(term: string, field: string): string {
  if (term.includes('\u0000') || LONE_SURROGATE.test(term)) {
    throw validationError(`${field} contains characters that cannot be stored`, {
      issues: [{ path: [field], code: 'invalid_string', message: 'must not contain NUL or lone surrogates' }],
    });
  }
  return term;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

export function overviewOps(deps: ContentDeps) {
  const { ctx } = deps;
  const db = () => dyn(ctx.db);

  function summaryColumns(c: CollectionInfo) {
    const title = titleColumn(c);
    return [
      't.id as id',
      't.slug as slug',
      title ? sql<string | null>`cast(${sql.ref(`t.${title}`)} as text)`.as('title') : sql<null>`null`.as('title'),
      't.status as status',
      't.locale as locale',
      't.translation_group as translation_group',
      't.author_id as author_id',
      'u.name as author_name',
      't.updated_at as updated_at',
      't.scheduled_at as scheduled_at',
      't.deleted_at as deleted_at',
    ];
  }

  // biome-ignore lint/suspicious/noExplicitAny: rows of dynamic entry tables
  const toSummary = (c: CollectionInfo, r: any): EntrySummary => ({
    collection: c.slug,
    id: r.id,
    slug: r.slug,
    title: r.title ?? null,
    status: r.deleted_at ? 'trashed' : r.status,
    locale: r.locale,
    translationGroup: r.translation_group,
    authorId: r.author_id,
    authorName: r.author_name ?? null,
    updatedAt: r.updated_at,
    scheduledAt: r.scheduled_at,
  });

  const base = (c: CollectionInfo) =>
    db().selectFrom(`${c.table} as t`).leftJoin('_cms_users as u', 'u.id', 't.author_id').select(summaryColumns(c));

  async function counts(c: CollectionInfo, locale: string): Promise<StatusCounts> {
    const rows: Array<{ status: string; live: unknown; trashed: unknown }> = await db()
      .selectFrom(c.table)
      .select([
        'status',
        sql`sum(case when deleted_at is null then 1 else 0 end)`.as('live'),
        sql`sum(case when deleted_at is null then 0 else 1 end)`.as('trashed'),
      ])
      .where('locale', '=', locale)
      .groupBy('status')
      .execute();
    const out: StatusCounts = { all: 0, draft: 0, published: 0, scheduled: 0, trashed: 0 };
    for (const r of rows) {
      const live = Number(r.live);
      out.trashed += Number(r.trashed);
      out.all += live;
      if (r.status === 'draft' || r.status === 'published' || r.status === 'scheduled') out[r.status] += live;
    }
    return out;
  }

  /** Collections in sidebar order with their fields, counts in `locale`, block types and the site's locales. */
  async function model(actor: Actor, opts: { locale?: string } = {}) {
    requireDraftReader(actor);
    const locale = localeOf(deps, opts.locale);
    const snap = await deps.schema.snapshot();
    const list = [...snap.collections.values()].sort(
      (a, b) => a.sortOrder - b.sortOrder || a.slug.localeCompare(b.slug),
    );
    const collections = [];
    for (const c of list) {
      collections.push({
        slug: c.slug,
        label: c.label,
        labelSingular: c.labelSingular,
        description: c.description,
        icon: c.icon,
        supports: c.supports,
        sortOrder: c.sortOrder,
        titleField: titleColumn(c) ? (c.fields.find((f) => f.column === titleColumn(c))?.slug ?? null) : null,
        fields: c.fields.map((f) => fieldView(f, snap)),
        counts: await counts(c, locale),
      });
    }
    const { i18n } = ctx.config;
    return {
      locale,
      i18n: { locales: [...i18n.locales], defaultLocale: i18n.defaultLocale, fallback: { ...i18n.fallback } },
      collections,
      blockTypes: [...snap.blockTypes.values()].map(blockTypeView),
    };
  }

  /** Short lists for the dashboard, newest first, over every collection. */
  async function dashboard(actor: Actor, opts: { locale?: string } = {}) {
    requireDraftReader(actor);
    const locale = localeOf(deps, opts.locale);
    const snap = await deps.schema.snapshot();
    const reviewer = can(actor, 'content:publish_any');
    const recent: EntrySummary[] = [];
    const mine: EntrySummary[] = [];
    const review: EntrySummary[] = [];
    const scheduled: EntrySummary[] = [];
    for (const c of snap.collections.values()) {
      const rows = await base(c)
        .where('t.locale', '=', locale)
        .where('t.deleted_at', 'is', null)
        .orderBy('t.updated_at', 'desc')
        .orderBy('t.id', 'desc')
        .limit(SHORT_LIST)
        .execute();
      recent.push(...rows.map((r: unknown) => toSummary(c, r)));
      if (actor.userId) {
        const own = await base(c)
          .where('t.author_id', '=', actor.userId)
          .where('t.status', '=', 'draft')
          .where('t.deleted_at', 'is', null)
          .orderBy('t.created_at', 'desc')
          .orderBy('t.id', 'desc')
          .limit(SHORT_LIST)
          .execute();
        mine.push(...own.map((r: unknown) => toSummary(c, r)));
      }
      if (reviewer) {
        // Contributors cannot publish: their drafts wait for someone who can.
        const waiting = await base(c)
          .where('t.locale', '=', locale)
          .where('t.status', '=', 'draft')
          .where('t.deleted_at', 'is', null)
          .where('u.role', '=', ROLES.CONTRIBUTOR)
          .orderBy('t.created_at', 'desc')
          .orderBy('t.id', 'desc')
          .limit(SHORT_LIST)
          .execute();
        review.push(...waiting.map((r: unknown) => toSummary(c, r)));
      }
      const due = await base(c)
        .where('t.scheduled_at', 'is not', null)
        .where('t.deleted_at', 'is', null)
        .orderBy('t.scheduled_at', 'asc')
        .orderBy('t.id', 'asc')
        .limit(SHORT_LIST)
        .execute();
      scheduled.push(...due.map((r: unknown) => toSummary(c, r)));
    }
    const newest = (a: EntrySummary, b: EntrySummary) => b.updatedAt.localeCompare(a.updatedAt);
    return {
      locale,
      recent: recent.sort(newest).slice(0, SHORT_LIST),
      mine: mine.sort(newest).slice(0, SHORT_LIST),
      review: reviewer ? review.sort(newest).slice(0, SHORT_LIST) : null,
      scheduled: scheduled
        .sort((a, b) => (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? ''))
        .slice(0, SHORT_LIST),
    };
  }

  /**
   * Entries to pick in a reference field: slug prefix (over the slug index)
   * and title substring, case-insensitive, in one locale, trash left out.
   */
  async function lookup(actor: Actor, collection: string, opts: { q?: string; locale?: string; limit?: number } = {}) {
    requireDraftReader(actor);
    const { c } = await collectionFor(deps, collection);
    const locale = localeOf(deps, opts.locale);
    const limit = opts.limit ?? 20;
    const term = checkTerm((opts.q ?? '').trim(), 'q').toLowerCase();
    let q = base(c).where('t.locale', '=', locale).where('t.deleted_at', 'is', null);
    if (!canReadDrafts(actor)) q = q.where('t.status', '=', 'published');
    if (term) {
      const pattern = `%${likeEscape(term)}%`;
      const title = titleColumn(c);
      q = q.where((eb: { or: (x: unknown[]) => unknown }) =>
        eb.or([
          sql<boolean>`lower(t.slug) like ${pattern} escape '\\'`,
          ...(title ? [sql<boolean>`lower(cast(${sql.ref(`t.${title}`)} as text)) like ${pattern} escape '\\'`] : []),
          sql<boolean>`t.id = ${term.toUpperCase()}`,
        ]),
      );
    }
    const rows = await q.orderBy('t.updated_at', 'desc').orderBy('t.id', 'desc').limit(limit).execute();
    return { items: rows.map((r: unknown) => toSummary(c, r)) };
  }

  return { model, dashboard, lookup };
}

export type OverviewOps = ReturnType<typeof overviewOps>;

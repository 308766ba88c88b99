import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import type { CollectionInfo } from '../schema/model.js';
import { creditsColumn, parseCredits } from './credits.js';
import type { ContentItem, EntryRow, ReferencePage, StagedRefs } from './model.js';
import { decodeData, dyn } from './rows.js';
import { param, runShaped } from './statements.js';

/**
 * Rows as read for presentation: the entry, its credits and (when the caller
 * may see drafts) its pending draft, all in one statement.
 */
export interface ReadRow extends EntryRow {
  _credits: unknown;
  _draft_data?: unknown;
  _draft_slug?: string | null;
  _draft_refs?: unknown;
}

const parseJson = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/** Base select of an entry table for presentation (credits always; the draft only for draft readers). */
export function selectForRead(db: Kdb, dialect: DialectName, c: CollectionInfo, withDraft: boolean) {
  let q = dyn(db).selectFrom(c.table).selectAll(c.table).select(creditsColumn(dialect, c).as('_credits'));
  if (withDraft) {
    q = q
      .leftJoin('_cms_revisions as _d', '_d.id', `${c.table}.draft_revision_id`)
      .select([
        sql.ref('_d.data').as('_draft_data'),
        sql.ref('_d.slug').as('_draft_slug'),
        sql.ref('_d.refs').as('_draft_refs'),
      ]);
  }
  return q;
}

/** The get-by-ID statement, compiled once per collection shape (see statements.ts). */
export async function readRowById(
  db: Kdb,
  dialect: DialectName,
  c: CollectionInfo,
  schemaVersion: number,
  withDraft: boolean,
  id: string,
): Promise<ReadRow | undefined> {
  const rows = await runShaped<ReadRow>(
    db,
    `byId|${dialect}|${c.id}|${schemaVersion}|${withDraft}`,
    () => selectForRead(db, dialect, c, withDraft).where(`${c.table}.id`, '=', param('id')),
    { id },
  );
  return rows[0];
}

export function draftRefsOf(row: ReadRow): StagedRefs | null {
  if (!row.draft_revision_id || row._draft_refs === undefined || row._draft_refs === null) return null;
  return parseJson(row._draft_refs) as StagedRefs;
}

/** The item a caller sees: the pending draft for draft readers, the live version for everyone else. */
export function toItem(
  c: CollectionInfo,
  row: ReadRow,
  opts: { showDraft: boolean; references?: Record<string, ReferencePage> },
): ContentItem {
  const draft = opts.showDraft && row.draft_revision_id && row._draft_data !== undefined && row._draft_data !== null;
  const data = draft
    ? { ...decodeData(c, row), ...(parseJson(row._draft_data) as Record<string, unknown>) }
    : decodeData(c, row);
  const bylines = parseCredits(row._credits);
  const primary = bylines.find((b) => b.byline.id === row.primary_byline_id)?.byline ?? null;
  const item: ContentItem = {
    id: row.id,
    type: c.slug,
    slug: draft ? (row._draft_slug ?? null) : row.slug,
    status: row.deleted_at ? 'trashed' : row.status,
    locale: row.locale,
    translationGroup: row.translation_group,
    data,
    authorId: row.author_id,
    primaryBylineId: row.primary_byline_id,
    byline: primary,
    bylines,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
    scheduledAt: row.scheduled_at,
    trashedAt: row.deleted_at,
    hasDraft: row.draft_revision_id !== null,
    liveRevisionId: row.live_revision_id,
    draftRevisionId: row.draft_revision_id,
  };
  if (opts.references) item.references = opts.references;
  return item;
}

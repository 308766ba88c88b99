import type { Kdb } from '../../db/connect.js';
import type { EntryRow } from '../content/model.js';
import { titleColumn } from '../content/references.js';
import { decodeData, dyn } from '../content/rows.js';
import type { CollectionInfo } from '../schema/model.js';
import type { SearchDoc, TierMap } from './model.js';
import { cleanText, tierTexts, titleText } from './text.js';

/** An entry row with its pending draft (slug and values), as the index needs it. */
export interface IndexedEntry {
  row: EntryRow;
  draft: { slug: string | null; data: Record<string, unknown> } | null;
}

/** Entry rows with their pending draft's slug and values, in one statement. */
function selectWithDrafts(db: Kdb, c: CollectionInfo) {
  return dyn(db)
    .selectFrom(c.table)
    .leftJoin('_cms_revisions as _d', '_d.id', `${c.table}.draft_revision_id`)
    .selectAll(c.table)
    .select(['_d.slug as _draft_slug', '_d.data as _draft_data']);
}

type RowWithDraft = EntryRow & { _draft_slug: string | null; _draft_data: string | null };

function indexed(r: RowWithDraft): IndexedEntry {
  const { _draft_slug, _draft_data, ...row } = r;
  return {
    row: row as EntryRow,
    draft:
      r.draft_revision_id && _draft_data !== null
        ? { slug: _draft_slug, data: JSON.parse(_draft_data) as Record<string, unknown> }
        : null,
  };
}

/** The given entries as they are now (rows already deleted are simply absent). */
export async function loadEntries(db: Kdb, c: CollectionInfo, ids: string[]): Promise<IndexedEntry[]> {
  if (!ids.length) return [];
  const rows: RowWithDraft[] = await selectWithDrafts(db, c).where(`${c.table}.id`, 'in', ids).execute();
  return rows.map(indexed);
}

/** The next entries after `cursor` in ID order, trash left out (a rebuild step). */
export async function loadChunk(
  db: Kdb,
  c: CollectionInfo,
  cursor: string | null,
  limit: number,
): Promise<{ entries: IndexedEntry[]; ids: string[]; last: string | null }> {
  let q = selectWithDrafts(db, c).orderBy(`${c.table}.id`).limit(limit);
  if (cursor !== null) q = q.where(`${c.table}.id`, '>', cursor);
  const rows: RowWithDraft[] = await q.execute();
  return {
    entries: rows.filter((r) => r.deleted_at === null).map(indexed),
    ids: rows.map((r) => r.id),
    last: rows.at(-1)?.id ?? null,
  };
}

/** Entries a full rebuild will visit (trash excluded), for progress. */
export async function countEntries(db: Kdb, c: CollectionInfo): Promise<number> {
  const row = await dyn(db)
    .selectFrom(c.table)
    .select((eb: { fn: { countAll: () => { as: (n: string) => unknown } } }) => eb.fn.countAll().as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * An entry's documents: the live version for every reader when it is
 * published, and what draft readers see (its pending draft over the live
 * values) when that differs or the entry is not live. Trashed entries have none.
 */
export function documentsOf(c: CollectionInfo, entry: IndexedEntry, tiers: TierMap): SearchDoc[] {
  const { row, draft } = entry;
  if (row.deleted_at !== null) return [];
  const titleField = titleColumn(c);
  const titleSlug = c.fields.find((f) => f.column === titleField)?.slug;
  const live = decodeData(c, row);
  const doc = (data: Record<string, unknown>, slug: string | null, flags: { live: boolean; current: boolean }) => ({
    entryId: row.id,
    version: Number(row.version),
    ...flags,
    locale: row.locale,
    status: row.status,
    slug: slug === null ? null : cleanText(slug),
    title: titleSlug ? titleText(data[titleSlug]) : '',
    text: tierTexts(c.fields, data, tiers),
  });
  const isLive = row.status === 'published';
  if (!draft) return [doc(live, row.slug, { live: isLive, current: true })];
  const current = doc({ ...live, ...draft.data }, draft.slug, { live: false, current: true });
  return isLive ? [doc(live, row.slug, { live: true, current: false }), current] : [current];
}

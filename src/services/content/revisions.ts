import type { Actor } from '../../auth/actor.js';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { RevisionsTable } from '../../db/tables.js';
import type { CollectionInfo } from '../schema/model.js';
import type { CreditInput, StagedRefs } from './model.js';

/** Revisions kept per entry; the live and draft revisions are never pruned. */
export const REVISION_RETENTION = 50;

export type RevisionKind = 'save' | 'draft' | 'publish' | 'restore';

export interface RevisionSnapshot {
  slug: string | null;
  data: Record<string, unknown>;
  refs?: StagedRefs | null;
  bylines?: CreditInput[] | null;
}

export interface RevisionView {
  id: string;
  entryId: string;
  kind: RevisionKind;
  slug: string | null;
  data: Record<string, unknown>;
  references: StagedRefs | null;
  bylines: CreditInput[] | null;
  createdBy: string | null;
  /** The saving user's name (null for the system, a deleted user or a user without a name). */
  createdByName: string | null;
  /** Fields this revision changed from the one before it; null for the earliest revision kept. */
  changedFields: string[] | null;
  createdAt: string;
  live: boolean;
  draft: boolean;
}

export function parseRevision(row: RevisionsTable): RevisionSnapshot & { kind: RevisionKind } {
  return {
    kind: row.kind as RevisionKind,
    slug: row.slug,
    data: JSON.parse(row.data) as Record<string, unknown>,
    refs: row.refs ? (JSON.parse(row.refs) as StagedRefs) : null,
    bylines: row.bylines ? (JSON.parse(row.bylines) as CreditInput[]) : null,
  };
}

export async function writeRevision(
  db: Kdb,
  c: CollectionInfo,
  entryId: string,
  snap: RevisionSnapshot,
  kind: RevisionKind,
  actor: Actor | null,
  now: string,
): Promise<string> {
  const id = newId();
  await db
    .insertInto('_cms_revisions')
    .values({
      id,
      collection_id: c.id,
      entry_id: entryId,
      slug: snap.slug,
      data: JSON.stringify(snap.data),
      refs: snap.refs && Object.keys(snap.refs).length ? JSON.stringify(snap.refs) : null,
      bylines: snap.bylines ? JSON.stringify(snap.bylines) : null,
      kind,
      created_by: actor?.userId ?? null,
      created_at: now,
    })
    .execute();
  return id;
}

export async function loadRevision(db: Kdb, id: string): Promise<RevisionsTable | undefined> {
  return db.selectFrom('_cms_revisions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Keep the newest REVISION_RETENTION revisions of an entry, plus its live and draft ones.
 * Every write that adds a revision also raises the row's version, so an entry whose version
 * (after the write) is within the retention cannot hold too many: nothing to read then.
 */
export async function pruneRevisions(
  db: Kdb,
  c: CollectionInfo,
  entryId: string,
  keep: Array<string | null>,
  version: number,
): Promise<void> {
  if (version <= REVISION_RETENTION) return;
  const old = await db
    .selectFrom('_cms_revisions')
    .select('id')
    .where('collection_id', '=', c.id)
    .where('entry_id', '=', entryId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(REVISION_RETENTION)
    .limit(1000)
    .execute();
  const protectedIds = new Set(keep.filter((k): k is string => !!k));
  const doomed = old.map((r) => r.id).filter((id) => !protectedIds.has(id));
  if (doomed.length) await db.deleteFrom('_cms_revisions').where('id', 'in', doomed).execute();
}

export async function listRevisions(
  db: Kdb,
  c: CollectionInfo,
  entryId: string,
  pointers: { live: string | null; draft: string | null },
  opts: { cursor?: string; limit?: number },
): Promise<{ items: RevisionView[]; nextCursor?: string }> {
  const limit = opts.limit ?? 50;
  let q = db
    .selectFrom('_cms_revisions as r')
    .leftJoin('_cms_users as u', 'u.id', 'r.created_by')
    .selectAll('r')
    .select('u.name as created_by_name')
    .where('r.collection_id', '=', c.id)
    .where('r.entry_id', '=', entryId);
  if (opts.cursor) {
    const [at, id] = decodeCursor(opts.cursor, [cursorText, cursorText]);
    q = q.where((eb) =>
      eb.or([eb('r.created_at', '<', at), eb.and([eb('r.created_at', '=', at), eb('r.id', '<', id)])]),
    );
  }
  // One row past the page: it tells whether there is a next page, and what the page's last revision changed.
  const rows = await q
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit + 1)
    .execute();
  const parsed = rows.map(parseRevision);
  const items = rows.slice(0, limit).map((row, i) => ({
    id: row.id,
    entryId,
    kind: parsed[i].kind,
    slug: parsed[i].slug,
    data: parsed[i].data,
    references: parsed[i].refs ?? null,
    bylines: parsed[i].bylines ?? null,
    createdBy: row.created_by,
    createdByName: row.created_by_name ?? null,
    changedFields: parsed[i + 1] ? changedFields(c, parsed[i + 1], parsed[i]) : null,
    createdAt: row.created_at,
    live: row.id === pointers.live,
    draft: row.id === pointers.draft,
  }));
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items, ...(last ? { nextCursor: encodeCursor([last.created_at, last.id]) } : {}) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** What a revision changed from the one before it: `slug`, then field slugs in the collection's order. */
function changedFields(c: CollectionInfo, older: RevisionSnapshot, newer: RevisionSnapshot): string[] {
  const out = same(older.slug, newer.slug) ? [] : ['slug'];
  for (const f of c.fields) if (!same(older.data[f.slug], newer.data[f.slug])) out.push(f.slug);
  return out;
}

export async function requireRevision(
  db: Kdb,
  c: CollectionInfo,
  entryId: string,
  id: string,
): Promise<RevisionsTable> {
  const row = await loadRevision(db, id);
  if (!row || row.collection_id !== c.id || row.entry_id !== entryId) throw notFound('Revision');
  return row;
}

import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { validationError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import { canReadDrafts } from '../content/access.js';
import { titleColumn } from '../content/references.js';
import { dyn } from '../content/rows.js';
import type { Coverage, UsagePage, UsageReference, UsageSource } from '../media/usage.js';
import type { SchemaService } from '../schema/index.js';
import type { StateOps } from './state.js';

const COLLECTION_STATUSES = new Set(['pending', 'running', 'complete', 'partial', 'failed', 'stale']);

/**
 * The site's coverage: `never` while tracking is off, `running` while it is
 * being activated or collections are still being indexed, then the worst
 * collection status; a state this version does not know is `unknown`.
 */
export async function siteCoverage(db: Kdb, state: StateOps): Promise<Coverage> {
  const row = state.knownActive ? { state: 'active' } : await state.read(db);
  if (row.state === 'expanded') return 'never';
  if (row.state === 'activating') return 'running';
  if (row.state !== 'active') return 'unknown';
  const statuses = await db.selectFrom('_cms_media_usage_collections').select('status').distinct().execute();
  const seen = new Set(statuses.map((s) => s.status));
  if ([...seen].some((s) => !COLLECTION_STATUSES.has(s))) return 'unknown';
  if (seen.has('failed')) return 'failed';
  if (seen.has('pending') || seen.has('running')) return 'running';
  if (seen.has('stale')) return 'stale';
  if (seen.has('partial')) return 'partial';
  return 'complete';
}

const ENTRY_ID = /^[0-9A-Za-z]{1,64}$/;

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!ENTRY_ID.test(id)) {
    throw validationError('Invalid cursor', { issues: [{ path: ['cursor'], code: 'invalid', message: 'bad cursor' }] });
  }
  return id;
}

interface Hit {
  collection_id: string;
  entry_id: string;
  locale: string;
  live: number;
}

/** The usage index as the media library reads it (counts and pages of referencing entries). */
export function usageSource(schema: SchemaService, state: StateOps): UsageSource {
  async function counts(db: Kdb, ids: string[]) {
    const coverage = await siteCoverage(db, state);
    const out = new Map<string, number>();
    if (coverage === 'never' || !ids.length) return { coverage, counts: out };
    const live = [...(await schema.snapshot()).collectionsById.keys()];
    if (!live.length) return { coverage, counts: out };
    // Distinct rows: repeats in one entry (several fields, repeater rows, draft and live) count once.
    const rows = await db
      .selectFrom('_cms_media_usage')
      .select(['media_id', sql<number>`count(distinct entry_id)`.as('n')])
      .where('media_id', 'in', ids)
      .where('collection_id', 'in', live)
      .groupBy('media_id')
      .execute();
    for (const r of rows) out.set(r.media_id, Number(r.n));
    return { coverage, counts: out };
  }

  async function references(
    db: Kdb,
    actor: Actor,
    id: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<UsagePage> {
    const coverage = await siteCoverage(db, state);
    if (coverage === 'never') return { items: [], coverage };
    const snap = await schema.snapshot();
    const live = [...snap.collectionsById.keys()];
    if (!live.length) return { items: [], coverage };
    const drafts = canReadDrafts(actor);
    const items: UsageReference[] = [];
    let after = cursor === undefined ? null : decodeCursor(cursor);
    let more = false;
    // Readers without draft access see published entries whose live values use the item; a page
    // may need a few reads to fill when drafts are filtered out.
    for (let round = 0; round < 5 && items.length < limit; round++) {
      let q = db
        .selectFrom('_cms_media_usage')
        .select(['collection_id', 'entry_id', 'locale', sql<number>`max(live)`.as('live')])
        .where('media_id', '=', id)
        .where('collection_id', 'in', live)
        .groupBy(['collection_id', 'entry_id', 'locale'])
        .orderBy('entry_id')
        .limit(limit + 1);
      if (after !== null) q = q.where('entry_id', '>', after);
      if (!drafts) q = q.having(sql<number>`max(live)`, '=', 1);
      const hits: Hit[] = await q.execute();
      const page = hits.slice(0, limit - items.length);
      more = hits.length > page.length;
      items.push(...(await describe(db, snap, page, drafts)));
      after = page.at(-1)?.entry_id ?? after;
      if (!more) break;
    }
    return {
      items,
      coverage,
      ...(more && after !== null ? { nextCursor: Buffer.from(after).toString('base64url') } : {}),
    };
  }

  /** Title and status of each hit, read from its collection's table (one query per collection on the page). */
  async function describe(
    db: Kdb,
    snap: Awaited<ReturnType<SchemaService['snapshot']>>,
    hits: Hit[],
    drafts: boolean,
  ): Promise<UsageReference[]> {
    const byCollection = new Map<string, string[]>();
    for (const h of hits) byCollection.set(h.collection_id, [...(byCollection.get(h.collection_id) ?? []), h.entry_id]);
    const found = new Map<string, { title: string | null; status: string; deleted_at: string | null }>();
    for (const [collectionId, entryIds] of byCollection) {
      const c = snap.collectionsById.get(collectionId);
      if (!c) continue;
      const title = titleColumn(c);
      const rows: Array<{ id: string; status: string; deleted_at: string | null; _title?: unknown }> = await dyn(db)
        .selectFrom(c.table)
        .select(['id', 'status', 'deleted_at', ...(title ? [`${title} as _title`] : [])])
        .where('id', 'in', entryIds)
        .execute();
      for (const r of rows)
        found.set(r.id, {
          title: typeof r._title === 'string' ? r._title : null,
          status: r.status,
          deleted_at: r.deleted_at,
        });
    }
    const out: UsageReference[] = [];
    for (const h of hits) {
      const row = found.get(h.entry_id);
      const c = snap.collectionsById.get(h.collection_id);
      if (!row || !c || row.deleted_at !== null) continue;
      if (!drafts && row.status !== 'published') continue;
      out.push({ collection: c.slug, id: h.entry_id, locale: h.locale, title: row.title, status: row.status });
    }
    return out;
  }

  return { counts, references };
}

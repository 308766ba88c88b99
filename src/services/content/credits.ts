import { type RawBuilder, sql } from 'kysely';
import { issuesError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import type { BylinesTable } from '../../db/tables.js';
import type { CollectionInfo } from '../schema/model.js';
import type { BylineView, CreditInput, CreditView } from './model.js';

/** Byline credits of entries: written per entry, read in the same statement as the entry. */

export function bylineView(b: BylinesTable): BylineView {
  return {
    id: b.id,
    displayName: b.display_name,
    slug: b.slug,
    bio: b.bio,
    avatarUrl: b.avatar_url,
    websiteUrl: b.website_url,
    userId: b.user_id,
    locale: b.locale,
    translationGroup: b.translation_group,
  };
}

/**
 * A correlated subquery yielding the entry's credits as one JSON array (no extra round trip; on
 * PostgreSQL null for an entry without credits). There an `exists` probe, one index lookup, guards
 * the aggregate: most entries of most sites have no credits, and building an empty aggregate per row
 * cost more than the rest of a list page's statement (about 0.15 ms of server time for 50 rows,
 * against 0.07 ms with the probe). SQLite's empty aggregate is cheap, so it runs unguarded.
 */
export function creditsColumn(dialect: DialectName, c: CollectionInfo): RawBuilder<unknown> {
  const entryId = sql.ref(`${c.table}.id`);
  // The keys of `CreditJson`, read by `parseCredits`.
  const pairs = sql`'id', b.id, 'displayName', b.display_name, 'slug', b.slug, 'bio', b.bio, 'avatarUrl', b.avatar_url,
    'websiteUrl', b.website_url, 'userId', b.user_id, 'locale', b.locale, 'translationGroup', b.translation_group,
    'roleLabel', eb.role_label, 'position', eb.position`;
  const from = sql`from _cms_entry_bylines eb join _cms_bylines b on b.id = eb.byline_id
    where eb.collection_id = ${c.id} and eb.entry_id = ${entryId}`;
  if (dialect === 'postgres') {
    const credited = sql`exists (select 1 from _cms_entry_bylines x where x.collection_id = ${c.id} and x.entry_id = ${entryId})`;
    return sql`case when ${credited} then (select json_agg(json_build_object(${pairs}) order by eb.position) ${from}) end`;
  }
  return sql`(select json_group_array(json_object(${pairs})) ${from})`;
}

interface CreditJson extends BylineView {
  roleLabel: string | null;
  position: number;
}

/** An entry's credits from `creditsColumn` (JSON text on SQLite, parsed on PostgreSQL, null for none). */
export function parseCredits(raw: unknown): CreditView[] {
  if (raw === null || raw === undefined) return [];
  const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as CreditJson[];
  return list
    .sort((a, b) => a.position - b.position)
    .map(({ roleLabel, position: _p, ...byline }) => ({ byline, roleLabel: roleLabel ?? null }));
}

export async function loadCredits(db: Kdb, c: CollectionInfo, entryId: string): Promise<CreditInput[]> {
  const rows = await db
    .selectFrom('_cms_entry_bylines')
    .select(['byline_id', 'role_label'])
    .where('collection_id', '=', c.id)
    .where('entry_id', '=', entryId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ bylineId: r.byline_id, roleLabel: r.role_label }));
}

/** Replace an entry's credits; the first credit is the primary byline. Returns the primary byline ID. */
export async function writeCredits(
  db: Kdb,
  c: CollectionInfo,
  entryId: string,
  credits: CreditInput[],
): Promise<string | null> {
  const ids = credits.map((cr) => cr.bylineId);
  if (new Set(ids).size !== ids.length) {
    throw issuesError('Invalid bylines', [
      { path: ['bylines'], code: 'duplicate', message: 'a byline is credited twice' },
    ]);
  }
  if (ids.length) {
    const found = new Set(
      (await db.selectFrom('_cms_bylines').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
    );
    const issues = ids
      .map((id, i) => (found.has(id) ? null : { path: ['bylines', i], code: 'not_found', message: `No byline ${id}` }))
      .filter((x): x is { path: (string | number)[]; code: string; message: string } => x !== null);
    if (issues.length) throw issuesError('Invalid bylines', issues);
  }
  await db.deleteFrom('_cms_entry_bylines').where('collection_id', '=', c.id).where('entry_id', '=', entryId).execute();
  for (const [i, cr] of credits.entries()) {
    await db
      .insertInto('_cms_entry_bylines')
      .values({
        collection_id: c.id,
        entry_id: entryId,
        byline_id: cr.bylineId,
        position: i,
        role_label: cr.roleLabel ?? null,
      })
      .execute();
  }
  return credits[0]?.bylineId ?? null;
}

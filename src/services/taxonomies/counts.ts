import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { dyn } from '../content/rows.js';
import type { CollectionInfo } from '../schema/model.js';

/**
 * Term counts: how many published, non-trashed entries of a locale carry a
 * term. Kept as a maintained count per (term group, locale, collection), so a
 * term list reads a handful of rows whatever the number of entries.
 *
 * `_cms_term_counted` remembers which term groups each counted entry adds to
 * the counts; after any entry write or assignment change the entry's wanted
 * state is compared with it and only the difference is applied (±1 per term).
 */
export async function recountEntries(trx: Kdb, c: CollectionInfo, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const deltas = new Map<string, number>();
  const bump = (group: string, locale: string, by: number) => {
    const key = `${group}\u0000${locale}`;
    deltas.set(key, (deltas.get(key) ?? 0) + by);
  };
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows: Array<{
      id: string;
      status: string;
      deleted_at: string | null;
      locale: string;
      translation_group: string;
    }> = await dyn(trx)
      .selectFrom(c.table)
      .select(['id', 'status', 'deleted_at', 'locale', 'translation_group'])
      .where('id', 'in', chunk)
      .execute();
    const live = rows.filter((r) => r.status === 'published' && r.deleted_at === null);
    const groups = [...new Set(live.map((r) => r.translation_group))];
    const assigned = groups.length
      ? await trx
          .selectFrom('_cms_content_terms')
          .select(['entry_group', 'term_group'])
          .where('collection_id', '=', c.id)
          .where('entry_group', 'in', groups)
          .execute()
      : [];
    const termsOfGroup = new Map<string, string[]>();
    for (const a of assigned)
      termsOfGroup.set(a.entry_group, [...(termsOfGroup.get(a.entry_group) ?? []), a.term_group]);
    const wanted = new Set<string>();
    const wantedRows: Array<{ entry_id: string; term_group: string; locale: string }> = [];
    for (const r of live) {
      for (const term of termsOfGroup.get(r.translation_group) ?? []) {
        wanted.add(`${r.id}\u0000${term}\u0000${r.locale}`);
        wantedRows.push({ entry_id: r.id, term_group: term, locale: r.locale });
      }
    }
    const current = await trx
      .selectFrom('_cms_term_counted')
      .selectAll()
      .where('collection_id', '=', c.id)
      .where('entry_id', 'in', chunk)
      .execute();
    const have = new Set(current.map((r) => `${r.entry_id}\u0000${r.term_group}\u0000${r.locale}`));
    for (const r of current) {
      if (wanted.has(`${r.entry_id}\u0000${r.term_group}\u0000${r.locale}`)) continue;
      await trx
        .deleteFrom('_cms_term_counted')
        .where('collection_id', '=', c.id)
        .where('entry_id', '=', r.entry_id)
        .where('term_group', '=', r.term_group)
        .execute();
      bump(r.term_group, r.locale, -1);
    }
    const added = wantedRows.filter((w) => !have.has(`${w.entry_id}\u0000${w.term_group}\u0000${w.locale}`));
    for (let j = 0; j < added.length; j += 200) {
      const part = added.slice(j, j + 200);
      // A row for the same entry and term with another locale cannot exist (an entry's locale never changes).
      await trx
        .insertInto('_cms_term_counted')
        .values(part.map((w) => ({ collection_id: c.id, ...w })))
        .execute();
    }
    for (const w of added) bump(w.term_group, w.locale, 1);
  }
  await applyDeltas(trx, c.id, deltas);
}

/** Add the deltas to the counts, in key order so concurrent writers lock rows in the same order. */
async function applyDeltas(trx: Kdb, collectionId: string, deltas: Map<string, number>): Promise<void> {
  for (const key of [...deltas.keys()].sort()) {
    const by = deltas.get(key) ?? 0;
    if (by === 0) continue;
    const [term_group, locale] = key.split('\u0000');
    await trx
      .insertInto('_cms_term_counts')
      .values({ term_group, locale, collection_id: collectionId, count: by })
      .onConflict((oc) =>
        oc
          .columns(['term_group', 'locale', 'collection_id'])
          .doUpdateSet({ count: sql<number>`_cms_term_counts.count + excluded.count` }),
      )
      .execute();
  }
}

/** Every entry of a translation group (trashed ones included). */
export async function recountGroup(trx: Kdb, c: CollectionInfo, group: string): Promise<void> {
  const rows: Array<{ id: string }> = await dyn(trx)
    .selectFrom(c.table)
    .select('id')
    .where('translation_group', '=', group)
    .execute();
  await recountEntries(
    trx,
    c,
    rows.map((r) => r.id),
  );
}

/** Forget the counted state of term groups that are going away. */
export async function forgetTermGroups(trx: Kdb, groups: string[]): Promise<void> {
  for (let i = 0; i < groups.length; i += 500) {
    const chunk = groups.slice(i, i + 500);
    await trx.deleteFrom('_cms_term_counted').where('term_group', 'in', chunk).execute();
    await trx.deleteFrom('_cms_term_counts').where('term_group', 'in', chunk).execute();
    await trx.deleteFrom('_cms_content_terms').where('term_group', 'in', chunk).execute();
  }
}

/** Counts of the given term groups in one locale, over the collections the taxonomy applies to. */
export async function countsFor(
  db: Kdb,
  groups: string[],
  locale: string,
  collectionIds: string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!groups.length || !collectionIds.length) return out;
  const rows = await db
    .selectFrom('_cms_term_counts')
    .select(['term_group', sql<number | string>`sum(count)`.as('n')])
    .where('term_group', 'in', groups)
    .where('locale', '=', locale)
    .where('collection_id', 'in', collectionIds)
    .groupBy('term_group')
    .execute();
  for (const r of rows) out.set(r.term_group, Number(r.n));
  return out;
}

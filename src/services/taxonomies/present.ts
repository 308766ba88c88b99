import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import type { TaxonomiesTable, TermsTable } from '../../db/tables-structure.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { countsFor } from './counts.js';
import { collectionIdsOf } from './deps.js';
import { collectionsOf, type TermView, termView } from './model.js';

/**
 * Terms as clients see them: the parent resolved to the same locale's term,
 * the maintained count and the number of children, for a whole page in three
 * statements whatever its size.
 */
export async function presentTerms(
  db: Kdb,
  snap: SchemaSnapshot,
  tax: TaxonomiesTable,
  rows: TermsTable[],
): Promise<TermView[]> {
  if (!rows.length) return [];
  const collectionIds = collectionIdsOf(snap, collectionsOf(tax));
  const byLocale = new Map<string, TermsTable[]>();
  for (const r of rows) byLocale.set(r.locale, [...(byLocale.get(r.locale) ?? []), r]);
  const parentIds = new Map<string, string>();
  const counts = new Map<string, number>();
  const children = new Map<string, number>();
  for (const [locale, list] of byLocale) {
    const groups = [...new Set(list.map((r) => r.translation_group))];
    const parents = [...new Set(list.map((r) => r.parent_group).filter((g): g is string => g !== null))];
    if (parents.length) {
      const found = await db
        .selectFrom('_cms_terms')
        .select(['id', 'translation_group'])
        .where('translation_group', 'in', parents)
        .where('locale', '=', locale)
        .execute();
      for (const p of found) parentIds.set(`${locale}\u0000${p.translation_group}`, p.id);
    }
    for (const [g, n] of await countsFor(db, groups, locale, collectionIds)) counts.set(`${locale}\u0000${g}`, n);
    const kids = await db
      .selectFrom('_cms_terms')
      .select(['parent_group', sql<number | string>`count(*)`.as('n')])
      .where('taxonomy', '=', tax.name)
      .where('parent_group', 'in', groups)
      .where('locale', '=', locale)
      .groupBy('parent_group')
      .execute();
    for (const k of kids) children.set(`${locale}\u0000${k.parent_group}`, Number(k.n));
  }
  return rows.map((r) =>
    termView(r, {
      parentId: r.parent_group === null ? null : (parentIds.get(`${r.locale}\u0000${r.parent_group}`) ?? null),
      count: counts.get(`${r.locale}\u0000${r.translation_group}`) ?? 0,
      childCount: children.get(`${r.locale}\u0000${r.translation_group}`) ?? 0,
    }),
  );
}

import { issuesError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { TaxonomiesTable, TermsTable } from '../../db/tables-structure.js';

/**
 * Where terms sit: parents (by translation group, so every locale shares
 * one tree) and manual order among siblings (one position per translation
 * group). Callers hold the taxonomy lock (see lockTaxonomy).
 */

const MAX_DEPTH = 1000;

/** Position after the last sibling under `parent` (null: the top level). */
export async function nextPosition(trx: Kdb, taxonomy: string, parent: string | null): Promise<number> {
  let q = trx
    .selectFrom('_cms_terms')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('taxonomy', '=', taxonomy);
  q = parent === null ? q.where('parent_group', 'is', null) : q.where('parent_group', '=', parent);
  const row = await q.executeTakeFirst();
  const max = row?.p;
  return max === null || max === undefined ? 0 : Number(max) + 1;
}

/**
 * The translation group a `parentId` names, checked: the taxonomy must be
 * hierarchical, the parent a term of the same taxonomy, not the term itself
 * nor one of its descendants, and translated into every locale in `locales`
 * (each locale's tree must stay whole).
 */
export async function checkParent(
  trx: Kdb,
  tax: TaxonomiesTable,
  parentId: string,
  self: { group: string | null; locales: string[] },
): Promise<string> {
  const bad = (code: string, message: string) => issuesError('Invalid parent', [{ path: ['parentId'], code, message }]);
  if (tax.hierarchical !== 1) throw bad('not_hierarchical', `taxonomy "${tax.name}" is flat: its terms have no parent`);
  const parent = await trx
    .selectFrom('_cms_terms')
    .select(['translation_group', 'taxonomy'])
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!parent || parent.taxonomy !== tax.name) throw bad('not_found', `no term ${parentId} in "${tax.name}"`);
  let at: string | null = parent.translation_group;
  for (let steps = 0; at !== null && steps < MAX_DEPTH; steps++) {
    if (at === self.group) throw bad('cycle', 'a term cannot sit below itself or one of its descendants');
    const up: { parent_group: string | null } | undefined = await trx
      .selectFrom('_cms_terms')
      .select('parent_group')
      .where('translation_group', '=', at)
      .limit(1)
      .executeTakeFirst();
    at = up?.parent_group ?? null;
  }
  if (self.locales.length) {
    const translated = await trx
      .selectFrom('_cms_terms')
      .select('locale')
      .where('translation_group', '=', parent.translation_group)
      .where('locale', 'in', self.locales)
      .execute();
    const missing = self.locales.filter((l) => !translated.some((t) => t.locale === l));
    if (missing.length) {
      throw bad('parent_untranslated', `the parent term has no ${missing.join(', ')} translation; translate it first`);
    }
  }
  return parent.translation_group;
}

/** Set parent and position on every locale's row of a translation group. */
export async function placeGroup(
  trx: Kdb,
  group: string,
  parent: string | null,
  position: number,
  now: string,
): Promise<void> {
  await trx
    .updateTable('_cms_terms')
    .set({ parent_group: parent, position, updated_at: now })
    .where('translation_group', '=', group)
    .execute();
}

/**
 * Rule 6: the listed terms (part of one sibling group) exchange the
 * positions they hold; omitted siblings keep theirs; parents do not change.
 * [A,B,C] reordered with [C,A] gives [C,B,A].
 */
export async function reorderSiblings(
  trx: Kdb,
  tax: TaxonomiesTable,
  ids: string[],
  now: string,
): Promise<TermsTable[]> {
  const rows = await trx
    .selectFrom('_cms_terms')
    .selectAll()
    .where('taxonomy', '=', tax.name)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const issues = ids.flatMap((id, i) =>
    byId.has(id) ? [] : [{ path: ['ids', i], code: 'not_found', message: `no term ${id} in "${tax.name}"` }],
  );
  if (issues.length) throw issuesError('Unknown terms', issues);
  const listed = ids.map((id) => byId.get(id) as TermsTable);
  const groups = listed.map((r) => r.translation_group);
  const dup = groups.findIndex((g, i) => groups.indexOf(g) !== i);
  if (dup >= 0) {
    throw issuesError('A term is listed twice', [
      { path: ['ids', dup], code: 'duplicate', message: 'names a term (or a translation of it) already listed' },
    ]);
  }
  const parent = listed[0].parent_group;
  const stranger = listed.findIndex((r) => r.parent_group !== parent);
  if (stranger >= 0) {
    throw issuesError('Terms must share one parent', [
      { path: ['ids', stranger], code: 'not_sibling', message: 'is not a sibling of the first listed term' },
    ]);
  }
  let siblingsQ = trx
    .selectFrom('_cms_terms')
    .select(['translation_group', 'position'])
    .distinct()
    .where('taxonomy', '=', tax.name);
  siblingsQ =
    parent === null ? siblingsQ.where('parent_group', 'is', null) : siblingsQ.where('parent_group', '=', parent);
  let siblings = (await siblingsQ.execute()).map((s) => ({ group: s.translation_group, position: Number(s.position) }));
  siblings.sort((a, b) => a.position - b.position || (a.group < b.group ? -1 : 1));
  // Equal positions (left by an older release or an import) would make an exchange ambiguous: number them first.
  if (new Set(siblings.map((s) => s.position)).size !== siblings.length) {
    siblings = siblings.map((s, i) => ({ ...s, position: i }));
    for (const s of siblings) await placeGroup(trx, s.group, parent, s.position, now);
  }
  const positionOf = new Map(siblings.map((s) => [s.group, s.position]));
  const slots = groups.map((g) => positionOf.get(g) as number).sort((a, b) => a - b);
  for (let i = 0; i < groups.length; i++) {
    if (positionOf.get(groups[i]) !== slots[i]) await placeGroup(trx, groups[i], parent, slots[i], now);
  }
  const after = await trx.selectFrom('_cms_terms').selectAll().where('id', 'in', ids).execute();
  return after.sort((a, b) => Number(a.position) - Number(b.position));
}

import type { Actor } from '../../auth/actor.js';
import { CmsError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { CollectionInfo } from '../schema/model.js';
import { mayChange } from './access.js';
import type { EntryRow } from './model.js';
import { appliedSelection, type RefField } from './references.js';
import { dyn, loadGroup } from './rows.js';

/**
 * Writes that reach beyond the entry named in the request — shared values
 * copied to the other translations, reference links keyed by translation
 * group, a child-end selection that joins or leaves another entry's ordered
 * selection — are checked against the caller's rights on every row they
 * change (see docs/decisions.md, "Writes that reach a translation group").
 */
export interface TouchedRow {
  collection: CollectionInfo;
  row: EntryRow;
}

export function deniedRows(actor: Actor, rows: TouchedRow[]): TouchedRow[] {
  const seen = new Set<string>();
  return rows.filter((t) => {
    const key = `${t.collection.id}:${t.row.id}`;
    if (seen.has(key) || mayChange(actor, t.row)) return false;
    seen.add(key);
    return true;
  });
}

/** 403 naming the entries the write would also change. */
export function groupWriteRefused(what: string, denied: TouchedRow[]): CmsError {
  const names = denied.map((t) => `${t.collection.slug}/${t.row.id} (${t.row.locale}, ${t.row.status})`);
  return new CmsError(
    'INSUFFICIENT_PERMISSIONS',
    `${what} would also change ${names.length === 1 ? 'an entry' : `${names.length} entries`} your role may not change: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ' …' : ''}. An Editor can make this change.`,
    {
      entries: denied.map((t) => ({
        collection: t.collection.slug,
        id: t.row.id,
        locale: t.row.locale,
        status: t.row.status,
      })),
    },
  );
}

/**
 * Rows whose live references change when `group`'s selection of `rf`
 * becomes `selection`: every entry of the group (the selection is shared by
 * its translations) and, for a field on the child end, each parent whose
 * ordered selection the entry joins or leaves.
 */
export async function rowsTouchedBySelection(
  db: Kdb,
  c: CollectionInfo,
  rf: RefField,
  group: string,
  selection: string[],
): Promise<TouchedRow[]> {
  const before = await appliedSelection(db, rf, group);
  // Restating the current selection changes nothing (a child end's links carry no order).
  const same =
    rf.side === 'parent'
      ? before.length === selection.length && before.every((g, i) => g === selection[i])
      : before.length === selection.length && before.every((g) => selection.includes(g));
  if (same) return [];
  const out: TouchedRow[] = (await loadGroup(db, c, group)).map((row) => ({ collection: c, row }));
  if (rf.side !== 'child') return out;
  const changed = [...selection.filter((g) => !before.includes(g)), ...before.filter((g) => !selection.includes(g))];
  if (!changed.length) return out;
  const parents: EntryRow[] = await dyn(db)
    .selectFrom(rf.other.table)
    .selectAll()
    .where('translation_group', 'in', changed)
    .execute();
  for (const row of parents) out.push({ collection: rf.other, row });
  return out;
}

/** Rows the given selections (field slug → translation groups) would change, for every field named. */
export async function rowsTouchedBySelections(
  db: Kdb,
  c: CollectionInfo,
  fields: RefField[],
  group: string,
  selections: Record<string, string[]>,
): Promise<TouchedRow[]> {
  const out: TouchedRow[] = [];
  for (const [slug, selection] of Object.entries(selections)) {
    const rf = fields.find((f) => f.field.slug === slug);
    if (rf) out.push(...(await rowsTouchedBySelection(db, c, rf, group, selection)));
  }
  return out;
}

/** The translation groups of `c` whose every entry the caller may change. */
export async function changeableGroups(db: Kdb, actor: Actor, c: CollectionInfo, groups: string[]): Promise<string[]> {
  if (!groups.length) return [];
  const rows: EntryRow[] = await dyn(db)
    .selectFrom(c.table)
    .selectAll()
    .where('translation_group', 'in', groups)
    .execute();
  const blocked = new Set(rows.filter((row) => !mayChange(actor, row)).map((row) => row.translation_group));
  return groups.filter((g) => !blocked.has(g));
}

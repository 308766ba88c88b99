import { isDeepStrictEqual } from 'node:util';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import type { CollectionInfo } from '../schema/model.js';
import type { EntryRow } from './model.js';
import { decodeData, dyn, encodeData, loadGroup } from './rows.js';

/**
 * Non-translatable fields hold one value across a translation group. When an
 * entry's live values change, siblings take them; a sibling's pending draft
 * keeps its own value where it changed that field, and follows otherwise.
 */
export async function syncNonTranslatable(
  db: Kdb,
  dialect: DialectName,
  c: CollectionInfo,
  source: EntryRow,
  live: Record<string, unknown>,
  now: string,
): Promise<void> {
  const shared = c.fields.filter((f) => !f.translatable && f.column);
  if (!shared.length) return;
  const siblings = (await loadGroup(db, c, source.translation_group)).filter((r) => r.id !== source.id);
  for (const sib of siblings) {
    const before = decodeData(c, sib);
    const changed: Record<string, unknown> = {};
    for (const f of shared) {
      if (!isDeepStrictEqual(before[f.slug], live[f.slug] ?? null)) changed[f.slug] = live[f.slug] ?? null;
    }
    if (!Object.keys(changed).length) continue;
    await dyn(db)
      .updateTable(c.table)
      .set({ ...encodeData(dialect, c, changed), updated_at: now, version: Number(sib.version) + 1 })
      .where('id', '=', sib.id)
      .execute();
    if (!sib.draft_revision_id) continue;
    const draft = await db
      .selectFrom('_cms_revisions')
      .select('data')
      .where('id', '=', sib.draft_revision_id)
      .executeTakeFirst();
    if (!draft) continue;
    const draftData = JSON.parse(draft.data) as Record<string, unknown>;
    let touched = false;
    for (const [slug, value] of Object.entries(changed)) {
      if (isDeepStrictEqual(draftData[slug] ?? null, before[slug] ?? null)) {
        draftData[slug] = value;
        touched = true;
      }
    }
    if (touched) {
      await db
        .updateTable('_cms_revisions')
        .set({ data: JSON.stringify(draftData) })
        .where('id', '=', sib.draft_revision_id)
        .execute();
    }
  }
}

/** Values of the non-translatable fields of a source entry, for a new translation. */
export function sharedValues(c: CollectionInfo, source: EntryRow): Record<string, unknown> {
  const data = decodeData(c, source);
  const out: Record<string, unknown> = {};
  for (const f of c.fields) if (!f.translatable && f.column) out[f.slug] = data[f.slug];
  return out;
}

import { isDeepStrictEqual } from 'node:util';
import type { Actor } from '../../auth/actor.js';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import type { CollectionInfo } from '../schema/model.js';
import type { ContentDeps } from './deps.js';
import { deniedRows, groupWriteRefused, type TouchedRow } from './group-writes.js';
import type { EntryRow } from './model.js';
import { decodeData, dyn, encodeData, loadGroup } from './rows.js';

/**
 * Non-translatable fields hold one value across a translation group. When an
 * entry's live values change, siblings take them; a sibling's pending draft
 * keeps its own value where it changed that field, and follows otherwise.
 */
export interface SyncStep {
  sibling: EntryRow;
  before: Record<string, unknown>;
  changed: Record<string, unknown>;
}

/** The siblings whose shared values differ from `live`, and the values they would take. */
export async function planSync(
  db: Kdb,
  c: CollectionInfo,
  source: EntryRow,
  live: Record<string, unknown>,
): Promise<SyncStep[]> {
  const shared = c.fields.filter((f) => !f.translatable && f.column);
  if (!shared.length) return [];
  const steps: SyncStep[] = [];
  for (const sibling of await loadGroup(db, c, source.translation_group)) {
    if (sibling.id === source.id) continue;
    const before = decodeData(c, sibling);
    const changed: Record<string, unknown> = {};
    for (const f of shared) {
      if (!isDeepStrictEqual(before[f.slug], live[f.slug] ?? null)) changed[f.slug] = live[f.slug] ?? null;
    }
    if (Object.keys(changed).length) steps.push({ sibling, before, changed });
  }
  return steps;
}

async function applySync(db: Kdb, dialect: DialectName, c: CollectionInfo, steps: SyncStep[], now: string) {
  for (const { sibling: sib, before, changed } of steps) {
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

/** Siblings a sync would change, as rows to check the caller's rights on. */
export function syncReach(c: CollectionInfo, steps: SyncStep[]): TouchedRow[] {
  return steps.map((s) => ({ collection: c, row: s.sibling }));
}

/** Write planned sync steps and tell the write listeners which siblings changed. */
export async function applySyncSteps(
  deps: ContentDeps,
  db: Kdb,
  c: CollectionInfo,
  source: EntryRow,
  steps: SyncStep[],
  actor: Actor,
  now: string,
): Promise<void> {
  if (!steps.length) return;
  await applySync(db, deps.ctx.dialect, c, steps, now);
  const ids = steps.map((s) => s.sibling.id);
  await deps.hooks.runAfterWrite(db, { kind: 'sync', collection: c, ids, group: source.translation_group, actor, now });
}

/**
 * Sync shared values from `source` to its siblings. Every sibling that would
 * change must be one the caller may change, or nothing is written.
 */
export async function syncGroup(
  deps: ContentDeps,
  db: Kdb,
  c: CollectionInfo,
  source: EntryRow,
  live: Record<string, unknown>,
  actor: Actor,
  now: string,
): Promise<void> {
  const steps = await planSync(db, c, source, live);
  const denied = deniedRows(actor, syncReach(c, steps));
  if (denied.length) throw groupWriteRefused('Changing the shared (non-translatable) fields', denied);
  await applySyncSteps(deps, db, c, source, steps, actor, now);
}

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kdb } from '../../db/connect.js';
import { dyn } from '../content/rows.js';
import type { CollectionInfo } from '../schema/model.js';
import { CHECK_BATCH, type Check, type FindingSink } from './model.js';

interface PointerRow {
  id: string;
  version: number;
  live_revision_id: string | null;
  draft_revision_id: string | null;
}

/**
 * Every entry's revision pointers resolve to a revision of that entry, and its version is a
 * positive integer. A pointer that does not resolve is repaired by clearing it: the entry row
 * holds the live values, so a lost live revision costs only its history entry, and a lost draft
 * leaves the entry showing what is live (the draft's values are gone either way).
 */
async function checkRange(
  db: Kdb,
  c: CollectionInfo,
  rows: PointerRow[],
  repair: boolean,
  sink: FindingSink,
): Promise<void> {
  const ids = [
    ...new Set(rows.flatMap((r) => [r.live_revision_id, r.draft_revision_id]).filter((x): x is string => !!x)),
  ];
  const owners = new Map<string, string>();
  for (let i = 0; i < ids.length; i += CHECK_BATCH) {
    const found = await db
      .selectFrom('_cms_revisions')
      .select(['id', 'entry_id'])
      .where('collection_id', '=', c.id)
      .where('id', 'in', ids.slice(i, i + CHECK_BATCH))
      .execute();
    for (const r of found) owners.set(r.id, r.entry_id);
  }
  const fixes: Array<{ id: string; column: 'live_revision_id' | 'draft_revision_id'; revision: string }> = [];
  for (const r of rows) {
    if (!Number.isInteger(Number(r.version)) || Number(r.version) < 1) {
      sink.add({
        code: 'BAD_VERSION',
        message: `version ${r.version} is not a positive integer`,
        collection: c.slug,
        subject: r.id,
        repairable: false,
      });
    }
    for (const column of ['live_revision_id', 'draft_revision_id'] as const) {
      const revision = r[column];
      if (revision && owners.get(revision) !== r.id) fixes.push({ id: r.id, column, revision });
    }
  }
  if (repair && fixes.length) {
    await db.transaction().execute(async (trx) => {
      for (const f of fixes) {
        // Only while the pointer is still the broken one: a write since the scan wins.
        await dyn(trx)
          .updateTable(c.table)
          .set({ [f.column]: null })
          .where('id', '=', f.id)
          .where(f.column, '=', f.revision)
          .execute();
      }
    });
  }
  for (const f of fixes) {
    const which = f.column === 'live_revision_id' ? 'live' : 'draft';
    sink.add({
      code: f.column === 'live_revision_id' ? 'DANGLING_LIVE_REVISION' : 'DANGLING_DRAFT_REVISION',
      message: `the ${which} revision ${f.revision} is not a revision of this entry`,
      collection: c.slug,
      subject: f.id,
      repairable: true,
      repaired: repair,
    });
  }
}

export const revisionsCheck: Check = {
  id: 'revisions',
  title: 'Revision pointers and versions of every entry',
  async run({ ctx, snap, repair }, sink) {
    for (const c of [...snap.collections.values()].sort((a, b) => a.slug.localeCompare(b.slug))) {
      let after: string | null = null;
      for (;;) {
        let q = dyn(ctx.db).selectFrom(c.table).select(['id', 'version', 'live_revision_id', 'draft_revision_id']);
        if (after !== null) q = q.where('id', '>', after);
        const rows: PointerRow[] = await q.orderBy('id').limit(CHECK_BATCH).execute();
        if (!rows.length) break;
        await checkRange(ctx.db, c, rows, repair, sink);
        // SQLite answers synchronously: give requests a turn between batches of a long check.
        await nextTurn();
        after = rows[rows.length - 1]?.id ?? null;
        if (rows.length < CHECK_BATCH) break;
      }
    }
  },
};

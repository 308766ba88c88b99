import type { TransferDeps } from './deps.js';
import { HOLD_KEY } from './gate.js';

/**
 * How long a package stays in storage: an export's files (they hold the
 * site's records, users' addresses included) are deleted this long after it
 * completed or failed, and it reads as `expired`; an import left unfinished
 * (uploading, analysed, planned, or cancelled before it wrote anything) is
 * abandoned this long after its last change, and its uploads deleted. An
 * import that holds the site is never touched: only an administrator
 * decides what happens to a half-written site.
 */
export const PACKAGE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const IDLE_IMPORT_STATES = ['uploading', 'analyzing', 'planned', 'cancelled'];

export function retentionOps(deps: TransferDeps) {
  const { ctx, ops, storage } = deps;

  async function removeOwned(operationId: string): Promise<void> {
    const owned = await ctx.db
      .selectFrom('_cms_transfer_files')
      .select('storage_key')
      .where('operation_id', '=', operationId)
      .where('owned', '=', 1)
      .where('storage_key', 'is not', null)
      .execute();
    for (const f of owned) await storage.delete(f.storage_key as string);
    await ctx.db
      .updateTable('_cms_transfer_files')
      .set({ storage_key: null })
      .where('operation_id', '=', operationId)
      .where('owned', '=', 1)
      .execute();
  }

  /** Expire old packages; returns how many operations it closed. */
  async function sweep(): Promise<number> {
    const cutoff = new Date(ctx.clock.now().getTime() - PACKAGE_RETENTION_MS).toISOString();
    const hold = await ctx.db.selectFrom('_cms_meta').select('value').where('key', '=', HOLD_KEY).executeTakeFirst();
    const due = await ctx.db
      .selectFrom('_cms_transfer_operations')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([
            eb('kind', '=', 'export'),
            eb('state', 'in', ['complete', 'failed']),
            eb('completed_at', '<', cutoff),
          ]),
          eb.and([eb('kind', '=', 'import'), eb('state', 'in', IDLE_IMPORT_STATES), eb('updated_at', '<', cutoff)]),
        ]),
      )
      .orderBy('id')
      .limit(50)
      .execute();
    let closed = 0;
    for (const row of due) {
      if (row.id === hold?.value) continue;
      try {
        await ops.update(ctx.db, row, { state: row.kind === 'export' ? 'expired' : 'abandoned' });
      } catch {
        // Another process (or a request) changed it first.
        continue;
      }
      await removeOwned(row.id);
      closed += 1;
    }
    return closed;
  }

  return { sweep, removeOwned };
}

import { periodic } from '../background.js';
import type { TransferDeps } from './deps.js';
import type { OperationRow } from './operations.js';

/** How often a process looks for transfer operations to step. */
export const TRANSFER_WORKER_INTERVAL_MS = 2_000;
/** A pass steps operations at most this long. */
const PASS_BUDGET_MS = 5_000;
/** How often a process looks for packages past their retention. */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Background work in every process: running exports and executing imports
 * finish even when the client that started them went away (a step takes the
 * operation's lease, so a worker and a client, or two processes, never run
 * the same step), and packages past their retention are removed.
 */
export function transferWorker(
  deps: TransferDeps,
  stepExport: (id: string) => Promise<OperationRow>,
  stepImport: (id: string) => Promise<void>,
  sweep: () => Promise<number>,
) {
  const { ctx } = deps;
  let swept = 0;

  async function runOnce(): Promise<void> {
    const began = Date.now();
    if (began - swept >= SWEEP_EVERY_MS) {
      swept = began;
      await sweep();
    }
    const running = await ctx.db
      .selectFrom('_cms_transfer_operations')
      .select('id')
      .select('kind')
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', '=', 'export'), eb('state', '=', 'running')]),
          eb.and([eb('kind', '=', 'import'), eb('state', '=', 'executing')]),
        ]),
      )
      .where((eb) =>
        eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', ctx.clock.now().toISOString())]),
      )
      .orderBy('id')
      .limit(10)
      .execute();
    for (const { id, kind } of running) {
      while (Date.now() - began < PASS_BUDGET_MS) {
        let op: OperationRow;
        if (kind === 'export') op = await stepExport(id);
        else {
          await stepImport(id);
          op = await deps.ops.get(ctx.db, 'import', id);
        }
        // Done, failed, or another process took the step: leave it.
        if ((op.state !== 'running' && op.state !== 'executing') || op.lease_token !== null) break;
      }
    }
  }

  return { runOnce, ...periodic(ctx.log, 'transfer worker', TRANSFER_WORKER_INTERVAL_MS, runOnce) };
}

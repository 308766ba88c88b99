import { UsageError } from './errors.js';
import type { Io } from './io.js';

/**
 * Confirming a change that is not simply taken back (an import writing the
 * whole site, abandoning one): `--yes`, or on a terminal the answer "yes".
 * A script without `--yes` is never left waiting: nothing happens and the
 * command exits 2 with `refusal`, which says to add --yes.
 */
export async function confirm(
  io: Io,
  opts: { yes?: boolean; question: string; refusal: string; declined: string },
): Promise<void> {
  if (opts.yes) return;
  if (!io.ask) throw new UsageError(opts.refusal);
  const answer = await io.ask(`${opts.question}\nType "yes" to continue: `);
  if (answer.trim().toLowerCase() !== 'yes') throw new UsageError(opts.declined);
}

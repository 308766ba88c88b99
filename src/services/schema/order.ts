import { validationError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';

/**
 * The order of collections and of a collection's fields: one rule for both
 * reorder operations (listed names first, the rest after in their order).
 */
/** Listed names first in the given order, then the others in their current order. */
export function applyOrder(current: string[], listed: string[], what: string): string[] {
  const known = new Set(current);
  const seen = new Set<string>();
  for (const name of listed) {
    if (!known.has(name)) throw validationError(`Unknown ${what} "${name}" in reorder list`);
    if (seen.has(name)) throw validationError(`${what} "${name}" is listed twice`);
    seen.add(name);
  }
  return [...listed, ...current.filter((n) => !seen.has(n))];
}

export async function writePositions(
  trx: Kdb,
  table: '_cms_collections' | '_cms_fields',
  ids: string[],
): Promise<void> {
  for (const [i, id] of ids.entries()) {
    await trx.updateTable(table).set({ sort_order: i }).where('id', '=', id).execute();
  }
}

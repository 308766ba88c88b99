import { isUniqueViolation } from '../core/errors.js';

export { isForeignKeyViolation, isUniqueViolation } from '../core/errors.js';

/**
 * Run a transaction again when it lost a race on a unique value it derived
 * itself (e.g. a generated slug): on PostgreSQL two writers can both find the
 * same value free; the loser's insert fails and the retry picks the next one.
 */
export async function retryOnUniqueRace<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !isUniqueViolation(err)) throw err;
    }
  }
}

import { afterEach, expect, it, vi } from 'vitest';
import { bumpSchemaVersion } from '../../../src/services/schema/snapshot.js';
import { testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { waitFor } from '../../helpers/wait.js';

/** The schema cache re-reads its version row once this much time has passed (VERSION_CHECK_MS and some). */
const PAST_CHECK_INTERVAL_MS = 1_100;

describeEachDialect('schema snapshot inside a write transaction', (dialect) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers when its version check is due (a listener of a long write must not wait for the write)', async () => {
    const cms = await testCms(dialect);
    const held = await cms.services.schema.snapshot();
    // A fake clock makes the version check due without waiting for it (only Date: timers stay real).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + PAST_CHECK_INTERVAL_MS);
    const stuck = new AbortController();
    const answered = await cms.ctx.db.transaction().execute(async (trx) => {
      // Take the write lock, as an entry write does before its listeners run.
      await trx.selectFrom('_cms_collections').select('id').limit(1).execute();
      await trx.updateTable('_cms_collections').set({ sort_order: 0 }).where('id', '=', 'none').execute();
      // Waiting for the write would never end on SQLite (one connection): the bound only turns that
      // deadlock into a failure with a message instead of the test's own timeout.
      const deadlock = new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve('timed out'), 15_000);
        stuck.signal.addEventListener('abort', () => clearTimeout(timer));
      });
      return Promise.race([
        cms.services.schema.snapshot().then((s) => (s === held ? 'snapshot' : 'reloaded')),
        deadlock,
      ]);
    });
    stuck.abort();
    expect(answered).toBe('snapshot');
    // Once the transaction is over the version check works again: a version change made without
    // the invalidation bus shows as soon as the next check is due and has run in the background.
    await bumpSchemaVersion(cms.ctx.db);
    vi.setSystemTime(Date.now() + PAST_CHECK_INTERVAL_MS);
    await waitFor(async () => (await cms.services.schema.snapshot()).version === held.version + 1, {
      what: 'the background version check to load the new schema version',
    });
  });
});

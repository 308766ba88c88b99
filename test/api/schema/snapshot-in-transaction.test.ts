import { setTimeout as delay } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('schema snapshot inside a write transaction', (dialect) => {
  it('answers when its version check is due (a listener of a long write must not wait for the write)', async () => {
    const cms = await testCms(dialect);
    await cms.services.schema.snapshot();
    await delay(1_100); // past the version-check interval
    const answered = await cms.ctx.db.transaction().execute(async (trx) => {
      // Take the write lock, as an entry write does before its listeners run.
      await trx.selectFrom('_cms_collections').select('id').limit(1).execute();
      await trx.updateTable('_cms_collections').set({ sort_order: 0 }).where('id', '=', 'none').execute();
      return Promise.race([
        cms.services.schema.snapshot().then(() => 'snapshot'),
        delay(5_000).then(() => 'timed out'),
      ]);
    });
    expect(answered).toBe('snapshot');
    // The background check runs once the transaction is over, and later answers come from the cache again.
    await delay(50);
    expect((await cms.services.schema.snapshot()).version).toBeDefined();
  });
});

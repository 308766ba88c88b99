/**
 * A rebuild steps the index for up to a second inside the request (and five in the background
 * worker). On SQLite every query completes synchronously, so without a pause between steps the loop
 * never gave the event loop a turn: the process read no request (an edit, a health check) until the
 * budget ran out. Found by the crash-recovery search scenario (no edit got through during a rebuild).
 */
import { expect, it } from 'vitest';
import { systemActor } from '../../../src/auth/actor.js';
import { testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('a search rebuild in steps', (dialect) => {
  it('lets timers and other requests run between its steps', async () => {
    const cms = await testCms(dialect, { config: { searchRebuildBatch: 2 } });
    await cms.services.schema.collections.create(systemActor, {
      slug: 'notes',
      label: 'Notes',
      fields: [{ slug: 'title', label: 'Title', type: 'string', required: true, searchable: true }],
    });
    for (let n = 0; n < 300; n++)
      await cms.services.content.create(systemActor, 'notes', { data: { title: `Note ${n}` } });
    let built = await cms.services.search.enable(systemActor, { collection: 'notes' });
    while (built.state === 'building') built = await cms.services.search.rebuild(systemActor, 'notes');
    // 150 steps of 2 entries: far longer than a 10 ms timer, which must fire while they run.
    const rebuilding = cms.services.search.rebuild(systemActor, 'notes').then(() => 'rebuild');
    const timer = new Promise<string>((done) => setTimeout(() => done('timer'), 10));
    expect(await Promise.race([rebuilding, timer])).toBe('timer');
    await rebuilding;
  });
});

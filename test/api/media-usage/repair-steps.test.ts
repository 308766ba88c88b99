import { expect, it } from 'vitest';
import { systemActor } from '../../../src/auth/actor.js';
import type { RepairProgress } from '../../../src/services/media-usage/index.js';
import { createEntry } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms } from '../../helpers/media.js';
import { images, imageValue, usageSchema } from '../../helpers/media-usage.js';

describeEachDialect('Media usage repair in steps', (dialect) => {
  it('rebuilds a collection one range per step from where the last stopped, and records its coverage at the end', async () => {
    const cms = await mediaCms(dialect, 'file', { config: { mediaUsageBatch: 2 } });
    await usageSchema(cms);
    const [a, b] = await images(cms, 2);
    for (let i = 0; i < 5; i++) await createEntry(cms, { data: { title: `E${i}`, cover: imageValue(i % 2 ? a : b) } });
    // Forget what the writes indexed, as a site import leaves it.
    await cms.ctx.db.deleteFrom('_cms_media_usage').execute();

    let progress: RepairProgress | null = null;
    let steps = 0;
    do {
      progress = await cms.services.mediaUsage.repairStep(systemActor, 'posts', progress, 0);
      steps += 1;
    } while (!progress.done && steps < 20);
    // Five entries, two a range: three ranges (the last one finds the end).
    expect(steps).toBe(3);
    expect(progress.result).toMatchObject({ status: 'complete', entries: 5, referencing: 5, references: 5 });
    const rows = await cms.ctx.db.selectFrom('_cms_media_usage').selectAll().execute();
    expect(rows).toHaveLength(5);
    const coverage = await cms.ctx.db.selectFrom('_cms_media_usage_collections').selectAll().execute();
    expect(coverage.find((c) => c.slug === 'posts')).toMatchObject({ status: 'complete', entries: 5 });
  });
});

import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call } from '../../helpers/cms.js';
import { createEntry, postsCollection } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';
import { fetchBytes, runExport, uploadPackage } from '../../helpers/transfer.js';

describeEachDialect('site transfer retention', (dialect) => {
  it('removes an export’s files and an idle import’s uploads after 7 days, and leaves media alone', async () => {
    const clock = new ManualClock(new Date('2026-03-01T00:00:00.000Z'));
    const cms = await mediaCms(dialect, 'file', { clock });
    await postsCollection(cms);
    await createEntry(cms, { data: { title: 'Kept' } });
    await uploaded(cms, await png(4, 4));
    const before = await cms.storedKeys();
    expect(before).toHaveLength(1);
    const op = await runExport(cms, cms.adminToken);
    const archive = (await fetchBytes(cms, `/admin/transfer/exports/${op.id}/archive`, cms.adminToken)).bytes;
    const other = await mediaCms(dialect, 'file', { clock });
    const idle = await uploadPackage(other, other.adminToken, archive);
    expect((await other.storedKeys()).length).toBeGreaterThan(0);

    clock.advance(6 * 24 * 3600_000);
    expect(await cms.services.transfer.sweep()).toBe(0);
    expect(await other.services.transfer.sweep()).toBe(0);
    clock.advance(2 * 24 * 3600_000);
    expect(await cms.services.transfer.sweep()).toBe(1);
    expect(await other.services.transfer.sweep()).toBe(1);

    const expired = await call(cms, 'GET', `/admin/transfer/exports/${op.id}`, { token: cms.adminToken });
    expect(expired.body.data.state).toBe('expired');
    const gone = await fetchBytes(cms, `/admin/transfer/exports/${op.id}/archive`, cms.adminToken);
    expect(gone.status).toBe(409);
    expect((await cms.storedKeys()).sort()).toEqual(before.sort());
    const abandoned = await call(other, 'GET', `/admin/transfer/imports/${idle}`, { token: other.adminToken });
    expect(abandoned.body.data.state).toBe('abandoned');
    expect(await other.storedKeys()).toEqual([]);
  });
});

/**
 * The consistency checker's media usage check: rows kept by the service report ok; a row
 * deleted or invented behind the service's back is found with its code; a repair rebuilds the
 * collection's rows, after which the media library's usage answers are right again and the
 * next run is ok. A site whose tracking is not active is skipped with a note.
 */
import { expect, it } from 'vitest';
import type { CheckReport } from '../../../src/services/check/index.js';
import { mediaUsageCheckOf } from '../../../src/services/check/media-usage.js';
import { call, type TestCms } from '../../helpers/cms.js';
import { createEntry, postsCollection } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms } from '../../helpers/media.js';
import { asUpgradedSite, images, imageValue, usagePages, usageSchema } from '../../helpers/media-usage.js';
import { adminActor as admin, runCheck } from './run-check.js';

const runUsage = (cms: TestCms, repair = false) =>
  cms.services.check.run(admin(cms), { checks: ['media-usage'], repair });

const found = (report: CheckReport) =>
  report.checks[0].findings.map((f) => `${f.code}:${f.collection}:${f.subject}`).sort();

/** The entries the media library says use an item. */
const usedBy = async (cms: TestCms, mediaId: string) =>
  (await usagePages(cms, mediaId)).items.map((r: any) => r.id as string).sort();

const rows = (cms: TestCms) =>
  cms.ctx.db
    .selectFrom('_cms_media_usage')
    .select(['entry_id', 'field_id', 'media_id', 'locale', 'live'])
    .orderBy('entry_id')
    .orderBy('media_id')
    .execute();

describeEachDialect('consistency check: media usage', (dialect) => {
  it('finds missing and extra usage rows, repairs the collection, then reports ok', async () => {
    const cms = await mediaCms(dialect, 'file');
    const posts = await usageSchema(cms);
    const [a, b] = await images(cms, 2);
    const one = (await createEntry(cms, { data: { title: 'One', cover: imageValue(a) } })).item.id as string;
    const two = (await createEntry(cms, { data: { title: 'Two', gallery: [{ photo: imageValue(b) }] } })).item
      .id as string;
    // An entry without media: nothing to index.
    await createEntry(cms, { data: { title: 'Three' } });

    const clean = await runUsage(cms);
    expect(clean.checks[0], JSON.stringify(clean)).toMatchObject({ id: 'media-usage', status: 'ok', problems: 0 });
    const before = await rows(cms);
    expect(before).toHaveLength(2);
    expect(await usedBy(cms, a.id)).toEqual([one]);

    const cover = posts.fields.find((f: any) => f.slug === 'cover').id as string;
    const db = cms.ctx.db;
    await db.deleteFrom('_cms_media_usage').where('entry_id', '=', one).execute();
    await db
      .insertInto('_cms_media_usage')
      .values({ collection_id: posts.id, entry_id: two, field_id: cover, media_id: a.id, locale: 'en', live: 1 })
      .execute();
    // The library answers from the rows: the wrong ones show.
    expect(await usedBy(cms, a.id)).toEqual([two]);

    const broken = await runUsage(cms);
    expect(broken.status).toBe('problems');
    expect(found(broken)).toEqual([`MEDIA_USAGE_EXTRA:posts:${two}`, `MEDIA_USAGE_MISSING:posts:${one}`].sort());
    expect(broken.checks[0].findings.every((f) => f.repairable && !f.repaired)).toBe(true);
    expect(broken.checks[0].findings.find((f) => f.code === 'MEDIA_USAGE_MISSING')?.message).toContain(a.id);

    const repaired = await runUsage(cms, true);
    expect(repaired.status, JSON.stringify(repaired)).toBe('repaired');
    expect(repaired.checks[0]).toMatchObject({ problems: 2, repaired: 2 });
    expect(await rows(cms)).toEqual(before);
    const again = await runUsage(cms);
    expect(again.checks[0], JSON.stringify(again)).toMatchObject({ status: 'ok', problems: 0 });
    expect(await usedBy(cms, a.id)).toEqual([one]);
    expect(await usedBy(cms, b.id)).toEqual([two]);
  });

  it('finds rows of an entry that no longer exists and a draft-only reference indexed as live', async () => {
    const cms = await mediaCms(dialect, 'file');
    const posts = await usageSchema(cms);
    const [a, b] = await images(cms, 2);
    const one = (await createEntry(cms, { data: { title: 'One', cover: imageValue(a) } })).item.id as string;
    // Published with `a`, then a pending draft that uses `b` instead: `b` is a draft-only reference.
    const pub = await call(cms, 'POST', `/content/posts/${one}/publish`, { token: cms.adminToken, body: {} });
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    const edit = await call(cms, 'PUT', `/content/posts/${one}`, {
      token: cms.adminToken,
      body: { data: { cover: imageValue(b) } },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await runUsage(cms)).checks[0].status).toBe('ok');
    const before = await rows(cms);
    expect(before.map((r) => [r.media_id, Number(r.live)]).sort()).toEqual(
      [
        [a.id, 1],
        [b.id, 0],
      ].sort(),
    );

    const db = cms.ctx.db;
    await db.updateTable('_cms_media_usage').set({ live: 1 }).where('media_id', '=', b.id).execute();
    const cover = posts.fields.find((f: any) => f.slug === 'cover').id as string;
    await db
      .insertInto('_cms_media_usage')
      .values({
        collection_id: posts.id,
        entry_id: '01NOSUCHENTRY0000000000000',
        field_id: cover,
        media_id: a.id,
        locale: 'en',
        live: 1,
      })
      .execute();

    const broken = await runUsage(cms);
    expect(found(broken)).toEqual(
      [
        `MEDIA_USAGE_EXTRA:posts:${one}`,
        `MEDIA_USAGE_MISSING:posts:${one}`,
        'MEDIA_USAGE_EXTRA:posts:01NOSUCHENTRY0000000000000',
      ].sort(),
    );
    expect((await runUsage(cms, true)).status).toBe('repaired');
    expect(await rows(cms)).toEqual(before);
    expect((await runUsage(cms)).checks[0].status).toBe('ok');
  });

  it('is skipped with a note while tracking is not active', async () => {
    const cms = await mediaCms(dialect, 'file');
    await usageSchema(cms);
    const [a] = await images(cms, 1);
    await createEntry(cms, { data: { title: 'One', cover: imageValue(a) } });
    await asUpgradedSite(cms);
    const report = await runUsage(cms, true);
    expect(report.checks[0]).toMatchObject({ status: 'skipped', problems: 0 });
    expect(report.checks[0].note).toMatch(/not active/);
    expect(await rows(cms)).toEqual([]);
  });

  it('walks entries and usage rows in bounded steps: rows before, between and after the entries are found', async () => {
    const cms = await mediaCms(dialect, 'file');
    const posts = await usageSchema(cms);
    const [a] = await images(cms, 1);
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await createEntry(cms, { data: { title: `E${i}`, cover: imageValue(a) } })).item.id);
    made.sort();
    const check = mediaUsageCheckOf(2);
    expect((await runCheck(cms, check, false)).codes).toEqual([]);
    const before = await rows(cms);

    const cover = posts.fields.find((f: any) => f.slug === 'cover').id as string;
    const ghosts = [
      '00000000000000000000000000',
      `${made[2]}0`,
      `${made[2]}1`,
      `${made[2]}2`,
      'ZZZZZZZZZZZZZZZZZZZZZZZZZ1',
      'ZZZZZZZZZZZZZZZZZZZZZZZZZ2',
      'ZZZZZZZZZZZZZZZZZZZZZZZZZ3',
    ];
    const db = cms.ctx.db;
    await db
      .insertInto('_cms_media_usage')
      .values(
        ghosts.map((g) => ({
          collection_id: posts.id,
          entry_id: g,
          field_id: cover,
          media_id: a.id,
          locale: 'en',
          live: 1,
        })),
      )
      .execute();
    await db.deleteFrom('_cms_media_usage').where('entry_id', 'in', [made[1], made[4]]).execute();

    const broken = await runCheck(cms, check, false);
    expect(broken.codes).toEqual(
      [
        ...ghosts.map((g) => `MEDIA_USAGE_EXTRA:${g}`),
        `MEDIA_USAGE_MISSING:${made[1]}`,
        `MEDIA_USAGE_MISSING:${made[4]}`,
      ].sort(),
    );
    const repaired = await runCheck(cms, check, true);
    expect(repaired.findings.every((f) => f.repaired)).toBe(true);
    expect((await runCheck(cms, check, false)).codes).toEqual([]);
    expect(await rows(cms)).toEqual(before);
  });

  it('finds rows of a collection without media fields, and the repair clears them', async () => {
    const cms = await mediaCms(dialect, 'file');
    await usageSchema(cms);
    const notes = await postsCollection(cms, { slug: 'notes' });
    const [a] = await images(cms, 1);
    const note = (await createEntry(cms, { data: { title: 'Plain' } }, cms.adminToken, 'notes')).item.id as string;
    expect((await runUsage(cms)).checks[0].status).toBe('ok');
    const title = notes.fields.find((f: any) => f.slug === 'title').id as string;
    await cms.ctx.db
      .insertInto('_cms_media_usage')
      .values({ collection_id: notes.id, entry_id: note, field_id: title, media_id: a.id, locale: 'en', live: 1 })
      .execute();
    expect(found(await runUsage(cms))).toEqual([`MEDIA_USAGE_EXTRA:notes:${note}`]);
    expect((await runUsage(cms, true)).status).toBe('repaired');
    expect(await rows(cms)).toEqual([]);
    expect((await runUsage(cms)).checks[0].status).toBe('ok');
  });
});

import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call } from '../../helpers/cms.js';
import { describeEachStore, jpeg, mediaCms, png, startS3, upload, uploaded } from '../../helpers/media.js';

const s3 = startS3();

describeEachStore('Media library', (dialect, store) => {
  it('lists newest first with cursors or numbered pages, and filters by folder, type and filename', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const cms = await mediaCms(dialect, store, { s3, clock });
    const token = cms.adminToken;
    const folder = (await call(cms, 'POST', '/media/folders', { token, body: { name: 'Team' } })).body.data;
    const made: any[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      made.push(
        await uploaded(cms, await png(10 + i, 10), {
          name: i === 2 ? 'Report_100%.png' : `photo-${i}.png`,
          fields: i < 2 ? { folderId: folder.id } : {},
        }),
      );
    }
    clock.advance(1000);
    const doc = await uploaded(cms, 'hello\n', { name: 'notes.txt', type: 'text/plain' });
    const ids = (r: any) => r.body.data.items.map((i: any) => i.id);

    const first = await call(cms, 'GET', '/media?limit=4', { token });
    expect(ids(first)).toEqual([doc.id, made[4].id, made[3].id, made[2].id]);
    expect(first.body.data.totalCount).toBeUndefined();
    const second = await call(cms, 'GET', `/media?limit=4&cursor=${first.body.data.nextCursor}`, { token });
    expect(ids(second)).toEqual([made[1].id, made[0].id]);
    expect(second.body.data.nextCursor).toBeUndefined();

    const page2 = await call(cms, 'GET', '/media?page=2&limit=4', { token });
    expect(ids(page2)).toEqual([made[1].id, made[0].id]);
    expect(page2.body.data.totalCount).toBe(6);
    expect(page2.body.data.nextCursor).toBeUndefined();
    const both = await call(cms, 'GET', `/media?page=1&cursor=${first.body.data.nextCursor}`, { token });
    expect(both.status).toBe(400);
    for (const bad of ['%00', 'eyJ4IjoxfQ', 'W10', Buffer.from('["2026-01-01","x\' or 1=1"]').toString('base64url')]) {
      const res = await call(cms, 'GET', `/media?cursor=${bad}`, { token });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }

    expect(ids(await call(cms, 'GET', `/media?folderId=${folder.id}`, { token }))).toEqual([made[1].id, made[0].id]);
    expect(ids(await call(cms, 'GET', '/media?folderId=unfiled', { token }))).toEqual([
      doc.id,
      made[4].id,
      made[3].id,
      made[2].id,
    ]);
    expect((await call(cms, 'GET', '/media?folderId=01ARZ3NDEKTSV4RRFFQ69G5FAV', { token })).status).toBe(404);
    expect(ids(await call(cms, 'GET', '/media?mimeType=text/plain', { token }))).toEqual([doc.id]);
    expect(ids(await call(cms, 'GET', '/media?mimeType=image/*&limit=100', { token }))).toHaveLength(5);
    expect(ids(await call(cms, 'GET', '/media?mimeType=video/*,text/plain', { token }))).toEqual([doc.id]);
    expect((await call(cms, 'GET', '/media?mimeType=not-a-type', { token })).status).toBe(400);
    expect(ids(await call(cms, 'GET', '/media?filename=REPORT_100%25', { token }))).toEqual([made[2].id]);
    // `%` and `_` are literal, not wildcards.
    expect(ids(await call(cms, 'GET', '/media?filename=%25', { token }))).toEqual([made[2].id]);
    expect(ids(await call(cms, 'GET', '/media?filename=o_1', { token }))).toEqual([]);
    expect((await call(cms, 'GET', '/media?filename=%00', { token })).status).toBe(400);
  });

  it('answers includeUsage=1 with the coverage state (a new installation tracks usage from the start), and refuses any other value', async () => {
    const cms = await mediaCms(dialect, store, { s3 });
    const item = await uploaded(cms, await png());
    const subscriber = await cms.userToken(10);
    const admin = await call(cms, 'GET', '/media?includeUsage=1', { token: cms.adminToken });
    expect(admin.body.data.items[0].usage).toEqual({ count: 0, coverage: 'complete' });
    const sub = await call(cms, 'GET', `/media/${item.id}?includeUsage=1`, { token: subscriber.token });
    expect(sub.body.data.item.usage).toEqual({ count: null, coverage: 'complete' });
    expect(
      (await call(cms, 'GET', `/media/${item.id}`, { token: cms.adminToken })).body.data.item.usage,
    ).toBeUndefined();
    for (const v of ['0', 'true', '2']) {
      const res = await call(cms, 'GET', `/media?includeUsage=${v}`, { token: cms.adminToken });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    // A site setting that selects the item counts, read from the stored settings.
    await cms.ctx.db
      .insertInto('_cms_settings')
      .values({ key: 'logo', value: JSON.stringify({ id: item.id }), updated_at: new Date().toISOString() })
      .execute();
    const usage = await call(cms, 'GET', `/media/${item.id}/usage`, { token: cms.adminToken });
    expect(usage.body.data).toEqual({ items: [], coverage: 'complete', siteSettings: [{ setting: 'logo' }] });
    const counted = await call(cms, 'GET', `/media/${item.id}?includeUsage=1`, { token: cms.adminToken });
    expect(counted.body.data.item.usage).toEqual({ count: 1, coverage: 'complete' });
  });

  it('updates alt, caption, folder and filename; empty alt or caption is stored as null', async () => {
    const cms = await mediaCms(dialect, store, { s3 });
    const token = cms.adminToken;
    const item = await uploaded(cms, await png(), { fields: { alt: 'old', caption: 'cap' } });
    const folder = (await call(cms, 'POST', '/media/folders', { token, body: { name: 'Press' } })).body.data;
    const res = await call(cms, 'PUT', `/media/${item.id}`, {
      token,
      body: { alt: '', caption: 'New caption\nsecond line', folderId: folder.id, filename: 'Renamed.png' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.item).toMatchObject({
      alt: null,
      caption: 'New caption\nsecond line',
      folderId: folder.id,
      filename: 'Renamed.png',
      url: item.url,
      storageKey: item.storageKey,
    });
    const back = await call(cms, 'PUT', `/media/${item.id}`, { token, body: { folderId: null } });
    expect(back.body.data.item.folderId).toBeNull();
    const bad = [
      [{ alt: 'a\u0000b' }, 'alt'],
      [{ caption: '\ud800' }, 'caption'],
      [{ folderId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, 'folderId'],
      [{ filename: '' }, 'filename'],
      [{ size: 3 }, ''],
    ] as const;
    for (const [body, field] of bad) {
      const r = await call(cms, 'PUT', `/media/${item.id}`, { token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      if (field) expect(r.body.error.details.issues[0].path).toEqual([field]);
    }
    expect((await call(cms, 'PUT', '/media/01ARZ3NDEKTSV4RRFFQ69G5FAV', { token, body: { alt: 'x' } })).status).toBe(
      404,
    );
  });

  it('deletes an item and its bytes; bytes shared with another item stay', async () => {
    const cms = await mediaCms(dialect, store, { s3 });
    const token = cms.adminToken;
    const a = await uploaded(cms, await png(20, 20));
    const b = await uploaded(cms, await png(21, 21));
    // Replacing b with a's bytes makes them share one stored object.
    const replaced = await upload(cms, await png(20, 20), { path: `/media/${b.id}/replace`, method: 'PUT' });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data.item.storageKey).toBe(a.storageKey);
    expect(await cms.storedKeys()).toEqual([a.storageKey]);

    const del = await call(cms, 'DELETE', `/media/${a.id}`, { token });
    expect(del.body.data).toEqual({ deleted: true, id: a.id });
    expect(await cms.storedKeys()).toEqual([a.storageKey]);
    expect((await cms.app.request(`/_cms/api/media/file/${b.id}`)).status).toBeLessThan(400);
    // b now answers for those bytes: uploading them again is deduplicated to b.
    const again = await upload(cms, await png(20, 20));
    expect(again.body.data).toMatchObject({ deduplicated: true, item: { id: b.id } });

    await call(cms, 'DELETE', `/media/${b.id}`, { token });
    expect(await cms.storedKeys()).toEqual([]);
    expect((await call(cms, 'DELETE', `/media/${b.id}`, { token })).status).toBe(404);
  });

  it('replaces the file: same ID and URL, new bytes, facts and storage key', async () => {
    const cms = await mediaCms(dialect, store, { s3 });
    const item = await uploaded(cms, await png(30, 20), { fields: { alt: 'kept' } });
    const res = await upload(cms, await jpeg(50, 40), {
      path: `/media/${item.id}/replace`,
      method: 'PUT',
      name: 'new.jpg',
      type: 'image/jpeg',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const next = res.body.data.item;
    expect(next).toMatchObject({
      id: item.id,
      url: item.url,
      alt: 'kept',
      width: 50,
      height: 40,
      mimeType: 'image/jpeg',
    });
    expect(next.storageKey).not.toBe(item.storageKey);
    expect(next.immutableUrl).not.toBe(item.immutableUrl);
    expect(await cms.storedKeys()).toEqual([next.storageKey]);
    const served = await cms.app.request(`/_cms/api/media/file/${item.id}`);
    expect(served.status).toBeLessThan(400);
    if (store === 'file') expect(served.headers.get('content-type')).toBe('image/jpeg');

    const wrongKind = await upload(cms, 'text now', {
      path: `/media/${item.id}/replace`,
      method: 'PUT',
      type: 'text/plain',
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.code).toBe('INVALID_TYPE');
    const missing = await upload(cms, await png(), {
      path: '/media/01ARZ3NDEKTSV4RRFFQ69G5FAV/replace',
      method: 'PUT',
    });
    expect(missing.status).toBe(404);
    expect(await cms.storedKeys()).toEqual([next.storageKey]);
  });
});

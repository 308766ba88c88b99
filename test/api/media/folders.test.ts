import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';

describeEachDialect('Media folders', (dialect) => {
  it('creates, lists (by name, with counts), renames and reads folders', async () => {
    const cms = await mediaCms(dialect);
    const token = cms.adminToken;
    const made = await call(cms, 'POST', '/media/folders', { token, body: { name: '  Press kit  ' } });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ name: 'Press kit', itemCount: 0 });
    const id = made.body.data.id;
    await call(cms, 'POST', '/media/folders', { token, body: { name: 'archive' } });
    await uploaded(cms, await png(), { fields: { folderId: id } });
    const list = await call(cms, 'GET', '/media/folders', { token });
    expect(list.body.data.items.map((f: any) => [f.name, f.itemCount])).toEqual([
      ['archive', 0],
      ['Press kit', 1],
    ]);
    const paged = await call(cms, 'GET', '/media/folders?limit=1', { token });
    expect(paged.body.data.items.map((f: any) => f.name)).toEqual(['archive']);
    const rest = await call(cms, 'GET', `/media/folders?limit=1&cursor=${paged.body.data.nextCursor}`, { token });
    expect(rest.body.data.items.map((f: any) => f.name)).toEqual(['Press kit']);
    expect(rest.body.data.nextCursor).toBeUndefined();
    const renamed = await call(cms, 'PUT', `/media/folders/${id}`, { token, body: { name: 'Press' } });
    expect(renamed.body.data).toMatchObject({ id, name: 'Press', itemCount: 1 });
    expect((await call(cms, 'GET', `/media/folders/${id}`, { token })).body.data.name).toBe('Press');
    expect((await call(cms, 'GET', '/media/folders/01ARZ3NDEKTSV4RRFFQ69G5FAV', { token })).status).toBe(404);
  });

  it('limits names to 200 characters and refuses names equal after normalisation and lowercasing', async () => {
    const cms = await mediaCms(dialect);
    const token = cms.adminToken;
    const create = (name: string) => call(cms, 'POST', '/media/folders', { token, body: { name } });
    expect((await create('x'.repeat(200))).status).toBe(201);
    const long = await create('y'.repeat(201));
    expect(long.status).toBe(400);
    expect(long.body.error.details.issues[0].path).toEqual(['name']);
    // 200 astral characters are 200 characters, not 400.
    expect((await create('😀'.repeat(200))).status).toBe(201);
    for (const bad of ['   ', 'a\u0000b', '\ud800x']) {
      const res = await create(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await create('Café')).status).toBe(201);
    // Decomposed é, other case, compatibility form of "fi": the same names.
    for (const twin of ['CAFE\u0301', 'café']) {
      const res = await create(twin);
      expect(res.status, twin).toBe(409);
      expect(res.body.error.code).toBe('ALREADY_EXISTS');
    }
    expect((await create('ﬁles')).status).toBe(201);
    expect((await create('FILES')).status).toBe(409);
    const other = (await create('Other')).body.data;
    const clash = await call(cms, 'PUT', `/media/folders/${other.id}`, { token, body: { name: 'files' } });
    expect(clash.status).toBe(409);
  });

  it('deleting a folder returns its media to the Main library and changes nothing else', async () => {
    const clock = new ManualClock('2026-02-01T00:00:00.000Z');
    const cms = await mediaCms(dialect, 'file', { clock });
    const token = cms.adminToken;
    const folder = (await call(cms, 'POST', '/media/folders', { token, body: { name: 'Old' } })).body.data;
    const item = await uploaded(cms, await png(), { fields: { folderId: folder.id } });
    clock.advance(60_000);
    const del = await call(cms, 'DELETE', `/media/folders/${folder.id}`, { token });
    expect(del.body.data).toEqual({ deleted: true, id: folder.id, itemsMoved: 1 });
    const after = (await call(cms, 'GET', `/media/${item.id}`, { token })).body.data.item;
    expect(after).toEqual({ ...item, folderId: null });
    const unfiled = await call(cms, 'GET', '/media?folderId=unfiled', { token });
    expect(unfiled.body.data.items.map((i: any) => i.id)).toEqual([item.id]);
    expect((await call(cms, 'DELETE', `/media/folders/${folder.id}`, { token })).status).toBe(404);
  });
});

/**
 * The storage check on both databases and both stores (file system, S3 through s3rver): a
 * library of real uploads, image derivatives, a pending upload and a site package is ok even when
 * every object is hours old; bytes removed or overwritten behind the media service's back, an old
 * stray object, and the original and derivatives of an item whose row went are found; an object
 * younger than the grace period is not judged (not reported); a repair deletes the old unowned
 * objects only, and the bytes that are gone stay reported.
 */
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { type Actor, personActor } from '../../../src/auth/actor.js';
import { ROLES } from '../../../src/auth/roles.js';
import { newId } from '../../../src/core/ids.js';
import { ORPHAN_GRACE_MS, storageCheckOf } from '../../../src/services/check/storage.js';
import type { Storage } from '../../../src/storage/types.js';
import { call } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { getImage } from '../../helpers/images.js';
import { describeEachStore, type MediaCms, mediaCms, png, startS3, uploaded } from '../../helpers/media.js';
import { runExport } from '../../helpers/transfer.js';
import { runCheck } from './run-check.js';

const s3 = startS3();

const admin = (cms: MediaCms): Actor =>
  personActor({ id: cms.adminId, name: 'Admin', email: 'admin@example.test', role: ROLES.ADMIN }, 'cli');

const check = (cms: MediaCms, repair = false) => cms.services.check.run(admin(cms), { checks: ['storage'], repair });

const findings = (report: Awaited<ReturnType<typeof check>>) =>
  report.checks[0]!.findings.map((f) => `${f.code}:${f.subject}:${f.repairable}:${f.repaired}`).sort();

/** Every file below `dir`. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

async function keys(storage: Storage, prefix?: string): Promise<string[]> {
  const out: string[] = [];
  for await (const o of storage.list(prefix)) out.push(o.key);
  return out.sort();
}

/** Store bytes under a key directly, past the media service (as a stray writer would). */
async function putRaw(storage: Storage, key: string, bytes: string): Promise<void> {
  const path = join(tmpdir(), `cms-raw-${newId()}`);
  writeFileSync(path, bytes);
  await storage.putFile(key, path, { contentType: 'application/octet-stream' });
}

const TWO_HOURS = 2 * 60 * 60_000;

describeEachStore('consistency checker: storage', (dialect, store) => {
  it('finds missing and cut-short bytes and old unowned objects, repairs the unowned ones only', async () => {
    const cms = await mediaCms(dialect, store, { s3 });
    const storage = cms.services.media.storage;
    /** The files that hold objects: the media folder, or s3rver's (whose object times are their mtime). */
    const objectFiles = () =>
      store === 'file'
        ? files(join(cms.dataDir, 'media'))
        : files(join(s3().dir, s3().bucket)).filter((f) => f.endsWith('._S3rver_object'));
    /** Set the write time of every object (or of those under `key`) back by `ms`. */
    const age = (ms: number, key?: string) => {
      const then = new Date(Date.now() - ms);
      const suffix = store === 'file' ? `/${key}` : `/${key}._S3rver_object`;
      const chosen = objectFiles().filter((f) => key === undefined || f.endsWith(suffix));
      if (key !== undefined) expect(chosen).toHaveLength(1);
      for (const f of chosen) utimesSync(f, then, then);
    };
    const a = await uploaded(cms, await png(400, 300, { r: 200, g: 0, b: 0 }), { name: 'a.png' });
    const b = await uploaded(cms, await png(410, 300, { r: 0, g: 200, b: 0 }), { name: 'b.png' });
    const c = await uploaded(cms, await png(420, 300, { r: 0, g: 0, b: 200 }), { name: 'c.png' });
    const d = await uploaded(cms, await png(430, 300, { r: 90, g: 90, b: 0 }), { name: 'd.png' });
    // Stored derivatives of two items.
    for (const item of [b, d]) {
      const res = await getImage(cms, item.srcsetCandidates[0].url);
      // S3 sends the client to the stored derivative; the file store answers with it.
      expect(res.status, res.bytes.toString()).toBe(store === 's3' ? 302 : 200);
    }
    // A pending upload: a row and a key, no bytes yet.
    const pending = await call(cms, 'POST', '/media/upload-url', {
      token: cms.adminToken,
      body: { filename: 'later.png', contentType: 'image/png', size: 10 },
    });
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    // A site package: its files are in the same store, owned by the transfer tables.
    await runExport(cms, cms.adminToken);

    const keyOf = async (id: string) =>
      (await cms.ctx.db.selectFrom('_cms_media').select('storage_key').where('id', '=', id).executeTakeFirstOrThrow())
        .storage_key;
    const mediaKeys = await Promise.all([a, b, c, d].map((i) => keyOf(i.id)));
    const stored = await keys(storage);
    // Originals, two derivatives and the package's files: more than the library's own objects.
    expect(stored.filter((k) => k.startsWith('derived/'))).toHaveLength(2);
    expect(stored.length).toBeGreaterThan(mediaKeys.length + 2);

    // Everything hours old: ownership alone keeps these objects, not their age.
    age(TWO_HOURS);
    const clean = await check(cms);
    expect(clean.checks.map((x) => [x.id, x.status, x.problems])).toEqual([['storage', 'ok', 0]]);

    // Behind the service's back.
    const [keyA, , keyC, keyD] = mediaKeys as [string, string, string, string];
    await storage.delete(keyA);
    await putRaw(storage, keyC, 'ten bytes!');
    age(TWO_HOURS, keyC);
    const oldOrphan = `${newId()}.png`;
    const freshOrphan = `${newId()}.jpg`;
    await putRaw(storage, oldOrphan, 'stray bytes');
    await putRaw(storage, freshOrphan, 'stray bytes');
    age(TWO_HOURS, oldOrphan);
    // Just inside the grace period: still not judged.
    age(ORPHAN_GRACE_MS - 5 * 60_000, freshOrphan);
    // The row of D goes, its original and its derivative stay.
    await sql`delete from _cms_media where id = ${d.id}`.execute(cms.ctx.db);
    const derivedOfD = await keys(storage, `derived/${d.id}/`);
    expect(derivedOfD).toHaveLength(1);

    const broken = await check(cms);
    expect(broken.status).toBe('problems');
    expect(findings(broken)).toEqual(
      [
        `MEDIA_FILE_MISSING:${a.id}:false:false`,
        `MEDIA_FILE_SIZE_MISMATCH:${c.id}:false:false`,
        `STORAGE_OBJECT_ORPHANED:${oldOrphan}:true:false`,
        `STORAGE_OBJECT_ORPHANED:${keyD}:true:false`,
        `STORAGE_OBJECT_ORPHANED:derived/${d.id}/:true:false`,
      ].sort(),
    );
    const byCode = (report: typeof broken, code: string) =>
      report.checks[0]!.findings.find((f) => f.code === code)!.message;
    expect(byCode(broken, 'MEDIA_FILE_MISSING')).toMatch(/not in storage.*restore them from a backup/);
    expect(byCode(broken, 'MEDIA_FILE_SIZE_MISMATCH')).toMatch(/are 10 bytes; the item records \d+/);
    // Checking changed nothing.
    expect(await keys(storage)).toEqual([...stored.filter((k) => k !== keyA), oldOrphan, freshOrphan].sort());

    const repaired = await check(cms, true);
    expect(repaired.status).toBe('problems');
    expect(repaired.checks[0]).toMatchObject({ problems: 5, repaired: 3 });
    expect(findings(repaired)).toEqual(
      [
        `MEDIA_FILE_MISSING:${a.id}:false:false`,
        `MEDIA_FILE_SIZE_MISMATCH:${c.id}:false:false`,
        `STORAGE_OBJECT_ORPHANED:${oldOrphan}:true:true`,
        `STORAGE_OBJECT_ORPHANED:${keyD}:true:true`,
        `STORAGE_OBJECT_ORPHANED:derived/${d.id}/:true:true`,
      ].sort(),
    );
    expect(await storage.head(oldOrphan)).toBeNull();
    expect(await storage.head(keyD)).toBeNull();
    expect(await keys(storage, `derived/${d.id}/`)).toEqual([]);
    // Kept: the fresh stray, the others' originals, B's derivative, the package's files.
    expect(await storage.head(freshOrphan)).toEqual({ size: 'stray bytes'.length });
    expect(await keys(storage)).toEqual(
      stored
        .filter((k) => k !== keyA && k !== keyD && !derivedOfD.includes(k))
        .concat(freshOrphan)
        .sort(),
    );

    const after = await check(cms);
    expect(findings(after)).toEqual(
      [`MEDIA_FILE_MISSING:${a.id}:false:false`, `MEDIA_FILE_SIZE_MISMATCH:${c.id}:false:false`].sort(),
    );
  });
});

describeEachDialect('consistency checker: storage, a row or object a step', (dialect) => {
  it('walks the item and object pages: each problem once, an item’s derivatives as one finding', async () => {
    const cms = await mediaCms(dialect, 'file');
    const storage = cms.services.media.storage;
    const items = [];
    for (let i = 0; i < 5; i++) {
      items.push(await uploaded(cms, await png(800 + i, 600, { r: 40 * i, g: 20, b: 90 }), { name: `p${i}.png` }));
    }
    items.sort((x, y) => x.id.localeCompare(y.id));
    const [first, kept, third, gone, fifth] = items as [any, any, any, any, any];
    // Two derivatives of the item that will go, one of an item that stays.
    const candidates = gone.srcsetCandidates.map((c: { url: string }) => c.url);
    expect(candidates.length).toBeGreaterThanOrEqual(2);
    for (const url of [...candidates.slice(0, 2), kept.srcsetCandidates[0].url]) {
      expect((await getImage(cms, url)).status).toBe(200);
    }
    expect(await keys(storage, `derived/${gone.id}/`)).toHaveLength(2);

    const goneKey = (
      await cms.ctx.db
        .selectFrom('_cms_media')
        .select('storage_key')
        .where('id', '=', gone.id)
        .executeTakeFirstOrThrow()
    ).storage_key;
    // Bytes gone of the first, third and fifth item: one in each page of two rows.
    const missing = [first, third, fifth];
    for (const item of missing) {
      const row = await cms.ctx.db
        .selectFrom('_cms_media')
        .select('storage_key')
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow();
      await storage.delete(row.storage_key);
    }
    const strays = Array.from({ length: 5 }, () => `${newId()}.bin`);
    for (const key of strays) await putRaw(storage, key, 'stray');
    await sql`delete from _cms_media where id = ${gone.id}`.execute(cms.ctx.db);
    const then = new Date(Date.now() - 2 * ORPHAN_GRACE_MS);
    for (const f of files(join(cms.dataDir, 'media'))) utimesSync(f, then, then);

    const expected = [
      ...missing.map((i) => `MEDIA_FILE_MISSING:${i.id}`),
      ...[...strays, goneKey].map((k) => `STORAGE_OBJECT_ORPHANED:${k}`),
      `STORAGE_OBJECT_ORPHANED:derived/${gone.id}/`,
    ].sort();
    for (const batch of [1, 2]) {
      const found = await runCheck(cms, storageCheckOf(batch), false);
      expect(found.codes, `batch ${batch}`).toEqual(expected);
    }

    const repaired = await runCheck(cms, storageCheckOf(1), true);
    expect(repaired.codes).toEqual(expected);
    expect(repaired.findings.filter((f) => f.repaired).map((f) => f.subject)).toHaveLength(7);
    expect(await keys(storage, `derived/${gone.id}/`)).toEqual([]);
    expect(await keys(storage, `derived/${kept.id}/`)).toHaveLength(1);
    for (const key of [...strays, goneKey]) expect(await storage.head(key)).toBeNull();

    const after = await runCheck(cms, storageCheckOf(1), false);
    expect(after.codes).toEqual(missing.map((i) => `MEDIA_FILE_MISSING:${i.id}`).sort());
  });
});

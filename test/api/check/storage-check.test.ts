/**
 * The storage check on both databases (file store): a library of real uploads, image
 * derivatives, a pending upload and a site package is ok even when every object is hours old;
 * bytes removed or cut short behind the service's back, an old stray object, and the original
 * and derivatives of an item whose row went are found; an object younger than the grace period
 * is not judged; a repair deletes the old unowned objects only, and the bytes that are gone stay
 * reported.
 */
import { mkdirSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { type Actor, personActor } from '../../../src/auth/actor.js';
import { ROLES } from '../../../src/auth/roles.js';
import { newId } from '../../../src/core/ids.js';
import { ORPHAN_GRACE_MS } from '../../../src/services/check/storage.js';
import { call } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { getImage } from '../../helpers/images.js';
import { type MediaCms, mediaCms, png, uploaded } from '../../helpers/media.js';
import { runExport } from '../../helpers/transfer.js';

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

/** Set a file's modification time back, as if it had been written `ms` ago. */
function age(path: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(path, then, then);
}

const TWO_HOURS = 2 * 60 * 60_000;

describeEachDialect('consistency checker: storage', (dialect) => {
  it('finds missing and cut-short bytes and old unowned objects, repairs the unowned ones only', async () => {
    const cms = await mediaCms(dialect, 'file');
    const storage = cms.services.media.storage;
    const root = join(cms.dataDir, 'media');
    const a = await uploaded(cms, await png(400, 300, { r: 200, g: 0, b: 0 }), { name: 'a.png' });
    const b = await uploaded(cms, await png(410, 300, { r: 0, g: 200, b: 0 }), { name: 'b.png' });
    const c = await uploaded(cms, await png(420, 300, { r: 0, g: 0, b: 200 }), { name: 'c.png' });
    const d = await uploaded(cms, await png(430, 300, { r: 90, g: 90, b: 0 }), { name: 'd.png' });
    // Stored derivatives of two items.
    for (const item of [b, d]) {
      const res = await getImage(cms, item.srcsetCandidates[0].url);
      expect(res.status, res.bytes.toString()).toBe(200);
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
    const stored = await cms.storedKeys();
    // Originals, two derivatives and the package's files: more than the library's own objects.
    expect(stored.length).toBeGreaterThan(mediaKeys.length + 2);

    // Everything hours old: ownership alone keeps these objects, not their age.
    for (const f of files(root)) age(f, TWO_HOURS);
    const clean = await check(cms);
    expect(clean.checks.map((x) => [x.id, x.status, x.problems])).toEqual([['storage', 'ok', 0]]);

    // Behind the service's back.
    const [keyA, , keyC, keyD] = mediaKeys as [string, string, string, string];
    rmSync(storage.localPath(keyA)!);
    truncateSync(storage.localPath(keyC)!, 10);
    const oldOrphan = `${newId()}.png`;
    const freshOrphan = `${newId()}.jpg`;
    for (const key of [oldOrphan, freshOrphan]) {
      const path = storage.localPath(key)!;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, 'stray bytes');
    }
    age(storage.localPath(oldOrphan)!, TWO_HOURS);
    // Just inside the grace period: still not judged.
    age(storage.localPath(freshOrphan)!, ORPHAN_GRACE_MS - 5 * 60_000);
    // The row of D goes, its original and its derivatives stay.
    await sql`delete from _cms_media where id = ${d.id}`.execute(cms.ctx.db);
    const derivedD = join(root, 'derived', d.id.slice(24, 26), d.id);
    const derivedOfD = files(derivedD).map((f) => basename(f));
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
    expect(statSync(storage.localPath(oldOrphan)!).isFile()).toBe(true);

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
    expect(() => statSync(derivedD)).toThrow(/ENOENT/);
    // Kept: the fresh stray, B's original and derivative, the package's files.
    expect(await storage.head(freshOrphan)).toEqual({ size: 'stray bytes'.length });
    expect((await cms.storedKeys()).sort()).toEqual(
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

import { expect, it } from 'vitest';
import { call } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { facts, getImage, imagePath, photo } from '../../helpers/images.js';
import { describeEachStore, mediaCms, png, startS3, uploaded } from '../../helpers/media.js';
import { fetchBytes, runExport, transferSite, untar } from '../../helpers/transfer.js';

const s3 = startS3();
/** Names of stored derivatives (`<20 hex>.<ext>`; originals are `<ulid>.<ext>`). */
const DERIVED = /^[0-9a-f]{20}\.(webp|avif|jpg|png)$/;

describeEachStore('Responsive images: stored derivatives', (dialect, store) => {
  it('makes a derivative once, keeps it in the store, answers 304 to its ETag and drops it with the item', async () => {
    const cms = await mediaCms(dialect, store, { s3 });
    const item = await uploaded(cms, await photo(800, 600), { name: 'p.jpg', type: 'image/jpeg' });
    // The record's srcset URLs are versioned (v=…), so cached for good.
    const url = item.srcsetCandidates.find((c: { width: number }) => c.width === 320).url as string;
    const read = async (headers: Record<string, string> = {}) => {
      const res = await getImage(cms, url, headers);
      if (res.status !== 302) return { ...res, location: null };
      // S3: the client is sent to the object, as by the file route.
      const location = res.headers.get('location') as string;
      return { ...res, location, bytes: Buffer.from(await (await fetch(location)).arrayBuffer()) };
    };
    const first = await read();
    expect(first.status).toBe(store === 's3' ? 302 : 200);
    expect(first.headers.get('cache-control')).toMatch(store === 's3' ? /max-age/ : /immutable/);
    expect(await facts(first.bytes)).toMatchObject({ width: 320, height: 240 });
    const derived = (await cms.storedKeys()).filter((k) => DERIVED.test(k));
    expect(derived).toHaveLength(1);
    // The second read is the stored object: same bytes, nothing new made.
    const again = await read();
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect((await cms.storedKeys()).filter((k) => DERIVED.test(k))).toEqual(derived);
    if (store === 'file') {
      const etag = first.headers.get('etag') as string;
      expect(etag).toBeTruthy();
      const cached = await read({ 'if-none-match': etag });
      expect(cached.status).toBe(304);
      expect(cached.bytes.length).toBe(0);
    }
    expect((await getImage(cms, imagePath(item.id, 'w=640&fm=webp'))).status).toBe(store === 's3' ? 302 : 200);
    expect((await cms.storedKeys()).filter((k) => DERIVED.test(k))).toHaveLength(2);

    expect((await call(cms, 'DELETE', `/media/${item.id}`, { token: cms.adminToken })).status).toBe(200);
    expect(await cms.storedKeys()).toEqual([]);
    expect((await getImage(cms, imagePath(item.id, 'w=320'))).status).toBe(404);
  });
});

describeEachDialect('Responsive images: limits and transfer', (dialect) => {
  it('refuses transforms beyond the running and waiting limits with 503 and Retry-After, then serves them', async () => {
    const cms = await mediaCms(dialect, 'file', { config: { imageTransformConcurrency: 1, imageTransformQueue: 1 } });
    const item = await uploaded(cms, await photo(2400, 1800), { name: 'big.jpg', type: 'image/jpeg' });
    const widths = [320, 640, 960, 1280, 1920];
    const answers = await Promise.all(widths.map((w) => getImage(cms, imagePath(item.id, `w=${w}&fm=avif`))));
    const busy = answers.filter((a) => a.status === 503);
    // One runs, one waits, the rest are refused at once.
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(2);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    for (const b of busy) {
      expect(b.json().error.code).toBe('IMAGE_TRANSFORM_BUSY');
      expect(Number(b.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Asked again when the others are done: made.
    const refused = widths.filter((_, i) => answers[i].status === 503);
    for (const w of refused) {
      const r = await getImage(cms, imagePath(item.id, `w=${w}&fm=avif`));
      expect(r.status).toBe(200);
      expect(await facts(r.bytes)).toMatchObject({ format: 'heif', width: w });
    }
  });

  it('carries the focal point through an export and import, and never exports a derivative', async () => {
    const source = await mediaCms(dialect);
    const item = await uploaded(source, await png(200, 100), { name: 'f.png', type: 'image/png' });
    const patched = await call(source, 'PUT', `/media/${item.id}`, {
      token: source.adminToken,
      body: { focalPoint: { x: 0.25, y: 0.75 } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((await getImage(source, imagePath(item.id, 'w=320'))).status).toBe(200);
    expect((await source.storedKeys()).some((k) => DERIVED.test(k))).toBe(true);

    const op = await runExport(source, source.adminToken);
    const archive = await fetchBytes(source, `/admin/transfer/exports/${op.id}/archive`, source.adminToken);
    const names = (await untar(archive.bytes)).map((e) => e.name);
    expect(names.some((n) => n.includes('derived') || DERIVED.test(n.split('/').pop() ?? ''))).toBe(false);

    const target = await mediaCms(dialect);
    await transferSite(source, target);
    const moved = await call(target, 'GET', `/media/${item.id}`, { token: target.adminToken });
    expect(moved.status).toBe(200);
    expect(moved.body.data.item.focalPoint).toEqual({ x: 0.25, y: 0.75 });
    expect((await target.storedKeys()).some((k) => DERIVED.test(k))).toBe(false);
    // Rebuilt on demand.
    expect((await getImage(target, imagePath(item.id, 'w=320'))).status).toBe(200);
  });
});

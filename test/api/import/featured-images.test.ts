/**
 * Featured images of a real export (the theme unit test data) land in the
 * entries' `featured_image` field after execute → copy media → rewrite: the
 * library item's value (the one builder the admin picker uses), a version
 * bump, the usage index; a file that could not be copied is a listed failure;
 * a rerun changes nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { mediaValue } from '../../../src/services/fields/media-value.js';
import { call } from '../../helpers/cms.js';
import { publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms } from '../../helpers/media.js';
import { usagePages } from '../../helpers/media-usage.js';
import { importExport, postExport, serveUploads } from '../../helpers/wxr.js';

let uploads: Awaited<ReturnType<typeof serveUploads>>;
let base = '';

beforeAll(async () => {
  uploads = await serveUploads();
  base = uploads.base;
});

afterAll(() => uploads.close());

const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

/** An image value as stored: reads add the read-only srcset and srcsetCandidates (docs/media.md). */
function stored(value: any) {
  if (!value) return value;
  const { srcset: _s, srcsetCandidates: _c, ...rest } = value;
  return rest;
}

describeEachDialect('WordPress import: featured images', (dialect) => {
  it('sets each entry’s featured image to its copied library item, reports the file that failed, reruns cleanly', {
    timeout: 120_000,
  }, async () => {
    const cms = await mediaCms(dialect, 'file', { config: { importAllowPrivateHosts: true } });
    const token = cms.adminToken;
    // The export's upload host is this test's server: the same paths, served locally.
    const file = uploads.themeData();
    const { result } = await importExport(cms, token, file);
    expect(result.status, JSON.stringify(result.body).slice(0, 1000)).toBe(200);
    const { attachments, featuredImages } = result.body.data.media;
    // Six items carry `_thumbnail_id`; each names an attachment of the file.
    expect(featuredImages.length).toBe(6);
    for (const f of featuredImages) {
      expect(f.field).toBe('featured_image');
      expect(f.url.startsWith(`${base}/`)).toBe(true);
    }
    const lost = featuredImages[0];
    uploads.missing.add(new URL(lost.url).pathname);

    const copied = await call(cms, 'POST', '/import/blogplatform/media', {
      token,
      body: { attachments: attachments.map((a: any) => ({ ...a, sourceId: String(a.sourceId) })), stream: false },
    });
    expect(copied.status, JSON.stringify(copied.body).slice(0, 1000)).toBe(200);
    const copy = copied.body.data;
    expect(copy.failed.map((f: any) => f.url)).toContain(lost.url);

    const revs = new Map<string, string>();
    for (const f of featuredImages) {
      const got = await call(cms, 'GET', `/content/${f.collection}/${f.entryId}`, { token });
      expect(got.body.data.item.data.featured_image ?? null).toBeNull();
      revs.set(f.entryId, got.body.data._rev);
    }

    const rewrite = () =>
      call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
        token,
        body: { urlMap: copy.urlMap, featuredImages, mediaIds: copy.mediaIds },
      });
    const res = await rewrite();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fi = res.body.data.featuredImages;
    const landed = featuredImages.filter((f: any) => f.url !== lost.url);
    expect(fi.set).toBe(landed.length);
    expect(fi.unchanged + fi.kept).toBe(0);
    expect(fi.failed).toEqual(
      featuredImages
        .filter((f: any) => f.url === lost.url)
        .map((f: any) => ({
          ...f,
          code: 'MEDIA_NOT_COPIED',
          message: `${lost.url} was not copied into the media library`,
        })),
    );

    const usedBy = new Map<string, string[]>();
    for (const f of featuredImages) {
      const got = await call(cms, 'GET', `/content/${f.collection}/${f.entryId}`, { token });
      const value = stored(got.body.data.item.data.featured_image ?? null);
      if (f.url === lost.url) {
        // The entry is left without an image; nothing was written to it.
        expect(value).toBeNull();
        expect(got.body.data._rev).toBe(revs.get(f.entryId));
        continue;
      }
      const mediaId = copy.mediaIds[f.url];
      const item = (await call(cms, 'GET', `/media/${mediaId}`, { token })).body.data.item;
      expect(value).toEqual(mediaValue('image', item, null));
      expect(value).toMatchObject({
        id: mediaId,
        provider: 'local',
        src: item.url,
        width: item.width,
        height: item.height,
        meta: { storageKey: item.storageKey },
      });
      // The version moved on: an editor holding the old _rev gets a conflict.
      expect(got.body.data._rev).not.toBe(revs.get(f.entryId));
      const stale = await call(cms, 'PUT', `/content/${f.collection}/${f.entryId}`, {
        token,
        body: { data: { featured_image: null }, _rev: revs.get(f.entryId) },
      });
      expect(stale.status).toBe(409);
      // A published entry's live revision holds the image too (what a reader sees).
      const row = await (cms.ctx.db as any)
        .selectFrom(`ec_${f.collection}`)
        .select(['live_revision_id'])
        .where('id', '=', f.entryId)
        .executeTakeFirstOrThrow();
      if (row.live_revision_id) {
        const rev = await (cms.ctx.db as any)
          .selectFrom('_cms_revisions')
          .select('data')
          .where('id', '=', row.live_revision_id)
          .executeTakeFirstOrThrow();
        expect(parse(rev.data).featured_image).toEqual(value);
      }
      usedBy.set(mediaId, [...(usedBy.get(mediaId) ?? []), f.entryId]);
    }
    // The usage index saw every reference (the write listeners ran with the update).
    for (const [mediaId, entries] of usedBy) {
      const pages = await usagePages(cms, mediaId);
      expect(pages.coverage).toBe('complete');
      expect(pages.items.map((r: any) => r.id).sort()).toEqual(expect.arrayContaining([...entries].sort()));
    }

    // A rerun writes nothing: same values, same versions, the same failure listed.
    const after = new Map<string, string>();
    for (const f of featuredImages) {
      after.set(f.entryId, (await call(cms, 'GET', `/content/${f.collection}/${f.entryId}`, { token })).body.data._rev);
    }
    const again = await rewrite();
    expect(again.body.data.featuredImages).toMatchObject({ set: 0, unchanged: landed.length, kept: 0 });
    expect(again.body.data.featuredImages.failed).toEqual(fi.failed);
    for (const f of featuredImages) {
      const got = await call(cms, 'GET', `/content/${f.collection}/${f.entryId}`, { token });
      expect(got.body.data._rev).toBe(after.get(f.entryId));
    }

    // Once the missing file is served, copying again fills the entry left without it.
    uploads.missing.clear();
    const retried = await call(cms, 'POST', '/import/blogplatform/media', {
      token,
      body: { attachments: [{ url: lost.url }], stream: false },
    });
    expect(retried.body.data.failed).toEqual([]);
    const filled = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
      token,
      body: {
        urlMap: retried.body.data.urlMap,
        featuredImages,
        mediaIds: { ...copy.mediaIds, ...retried.body.data.mediaIds },
      },
    });
    expect(filled.body.data.featuredImages).toMatchObject({ set: 1, unchanged: landed.length, failed: [] });
  });

  it('a re-run with skipExisting lists the entries it matched, so a run cut short before the media step still gets its images', {
    timeout: 120_000,
  }, async () => {
    const cms = await mediaCms(dialect, 'file', { config: { importAllowPrivateHosts: true } });
    const token = cms.adminToken;
    const file = uploads.themeData();
    // The first run wrote every entry; its result (with the featured images to set) is lost.
    const { result } = await importExport(cms, token, file);
    const waiting = result.body.data.media.featuredImages;
    const again = await postExport(cms, '/import/blogplatform/execute', token, file, {
      config: JSON.stringify({ skipExisting: true }),
    });
    expect(again.status, JSON.stringify(again.body).slice(0, 1000)).toBe(200);
    expect(again.body.data.imported).toBe(0);
    const byEntry = (list: any[]) => [...list].sort((a, b) => a.entryId.localeCompare(b.entryId));
    expect(byEntry(again.body.data.media.featuredImages)).toEqual(byEntry(waiting));

    const copied = await call(cms, 'POST', '/import/blogplatform/media', {
      token,
      body: { attachments: again.body.data.media.attachments, stream: false },
    });
    const { urlMap, mediaIds } = copied.body.data;
    const rewrite = () =>
      call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
        token,
        body: { urlMap, mediaIds, featuredImages: again.body.data.media.featuredImages },
      });
    const res = await rewrite();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.featuredImages).toMatchObject({ set: waiting.length, unchanged: 0, kept: 0, failed: [] });
    for (const f of waiting) {
      const got = await call(cms, 'GET', `/content/${f.collection}/${f.entryId}`, { token });
      expect(got.body.data.item.data.featured_image?.id).toBe(mediaIds[f.url]);
    }
    // Listed again by a further re-run, the images already set are left as they are.
    const third = await postExport(cms, '/import/blogplatform/execute', token, file, {
      config: JSON.stringify({ skipExisting: true }),
    });
    expect(byEntry(third.body.data.media.featuredImages)).toEqual(byEntry(waiting));
    expect((await rewrite()).body.data.featuredImages).toMatchObject({ set: 0, unchanged: waiting.length });
  });

  it('keeps a featured image an editor chose, and refuses unknown fields and Editors', async () => {
    const cms = await mediaCms(dialect, 'file', { config: { importAllowPrivateHosts: true } });
    const token = cms.adminToken;
    const file = uploads.themeData();
    const { result } = await importExport(cms, token, file);
    const { featuredImages } = result.body.data.media;
    const [first, second] = featuredImages;
    const copied = await call(cms, 'POST', '/import/blogplatform/media', {
      token,
      body: { attachments: [{ url: first.url }, { url: second.url }], stream: false },
    });
    const { mediaIds } = copied.body.data;
    // An editor picks the second image for the first entry before the rewrite runs.
    const other = (await call(cms, 'GET', `/media/${mediaIds[second.url]}`, { token })).body.data.item;
    const chosen = mediaValue('image', other, null);
    const current = await call(cms, 'GET', `/content/${first.collection}/${first.entryId}`, { token });
    const put = await call(cms, 'PUT', `/content/${first.collection}/${first.entryId}`, {
      token,
      body: { data: { featured_image: chosen }, _rev: current.body.data._rev },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // Published: the choice is the live value (a pending draft alone would leave the live field empty to fill).
    if (put.body.data.item.hasDraft) await publish(cms, first.entryId, token, first.collection);
    const res = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
      token,
      body: {
        urlMap: {},
        mediaIds,
        featuredImages: [first, { ...second, field: 'title' }, { ...second, collection: 'nope' }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.featuredImages.kept).toBe(1);
    expect(res.body.data.featuredImages.failed.map((f: any) => f.code)).toEqual(['NOT_FOUND', 'NOT_FOUND']);
    const kept = await call(cms, 'GET', `/content/${first.collection}/${first.entryId}`, { token });
    expect(stored(kept.body.data.item.data.featured_image)).toEqual(chosen);

    const editor = await cms.userToken(ROLES.EDITOR);
    const refused = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
      token: editor.token,
      body: { urlMap: {}, mediaIds, featuredImages: [second] },
    });
    expect(refused.status).toBe(403);
  });
});

import { createHash } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { newId } from '../../../src/core/ids.js';
import { STAGED_GRACE_MS } from '../../../src/services/media/sweeper.js';
import { call, type TestCms } from '../../helpers/cms.js';
import { describeEachStore, mediaCms, png, stagedLeftovers, startS3, uploaded } from '../../helpers/media.js';

const s3 = startS3();

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Send the bytes where the upload-url answer says, as a client would. */
async function sendBytes(cms: TestCms, target: any, bytes: Buffer, token = cms.adminToken) {
  if (target.uploadUrl.startsWith('/')) {
    const res = await cms.app.request(target.uploadUrl, {
      method: target.method,
      headers: { ...target.headers, authorization: `Bearer ${token}` },
      body: new Uint8Array(bytes),
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  const res = await fetch(target.uploadUrl, {
    method: target.method,
    headers: target.headers,
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: await res.text() };
}

describeEachStore('Upload-target flow', (dialect, store) => {
  const open = (options: { clock?: ManualClock; config?: Record<string, unknown> } = {}) =>
    mediaCms(dialect, store, { s3, ...options });

  it('creates a pending item, takes its bytes and confirms it into a ready item', async () => {
    const cms = await open();
    const bytes = await png(33, 22);
    const target = await call(cms, 'POST', '/media/upload-url', {
      token: cms.adminToken,
      body: { filename: 'hero.png', contentType: 'image/png', size: bytes.length, contentHash: sha(bytes) },
    });
    expect(target.status, JSON.stringify(target.body)).toBe(201);
    const t = target.body.data;
    expect(t).toMatchObject({ existing: false, method: 'PUT', headers: { 'Content-Type': 'image/png' } });
    expect(t.storageKey).toBe(`${t.mediaId}.png`);
    expect(Date.parse(t.expiresAt)).toBeGreaterThan(Date.now());
    if (store === 'file') expect(t.uploadUrl).toBe(`/_cms/api/media/${t.mediaId}/upload`);
    else expect(t.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/.+X-Amz-Signature=/);

    // Pending: hidden from the list, its file not served.
    expect((await call(cms, 'GET', '/media', { token: cms.adminToken })).body.data.items).toEqual([]);
    const early = await call(cms, 'POST', `/media/${t.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: bytes.length },
    });
    expect(early.body.error.code).toBe('FILE_NOT_FOUND');

    const sent = await sendBytes(cms, t, bytes);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await cms.app.request(`/_cms/api/media/file/${t.mediaId}`)).status).toBe(404);

    const confirmed = await call(cms, 'POST', `/media/${t.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: bytes.length, width: 33, height: 22, alt: 'Hero' },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      deduplicated: false,
      item: { id: t.mediaId, status: 'ready', width: 33, height: 22, alt: 'Hero', contentHash: `sha256:${sha(bytes)}` },
    });
    const again = await call(cms, 'POST', `/media/${t.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: bytes.length },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVALID_STATE');
    expect((await call(cms, 'GET', '/media', { token: cms.adminToken })).body.data.items).toHaveLength(1);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('answers existing: true when the hash matches a file of the same type and size', async () => {
    const cms = await open();
    const bytes = await png(8, 8);
    const item = await uploaded(cms, bytes);
    const res = await call(cms, 'POST', '/media/upload-url', {
      token: cms.adminToken,
      body: {
        filename: 'again.png',
        contentType: 'image/png',
        size: bytes.length,
        contentHash: `sha256:${sha(bytes)}`,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ existing: true, mediaId: item.id, item: { id: item.id } });
    // Same hash, another declared type or size: a new pending upload.
    const other = await call(cms, 'POST', '/media/upload-url', {
      token: cms.adminToken,
      body: { filename: 'again.png', contentType: 'image/png', size: bytes.length + 1, contentHash: sha(bytes) },
    });
    expect(other.body.data.existing).toBe(false);
  });

  it('checks sizes, types, hashes and dimensions at confirmation', async () => {
    const cms = await open();
    const bytes = await png(10, 10);
    const ask = async (body: Record<string, unknown>) =>
      (await call(cms, 'POST', '/media/upload-url', { token: cms.adminToken, body })).body.data;

    const t = await ask({ filename: 'a.png', contentType: 'image/png', size: bytes.length });
    await sendBytes(cms, t, bytes);
    const wrongSize = await call(cms, 'POST', `/media/${t.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: 5 },
    });
    expect(wrongSize.body.error).toMatchObject({
      code: 'UPLOAD_SIZE_MISMATCH',
      details: { declared: bytes.length, confirmed: 5 },
    });
    const wrongDims = await call(cms, 'POST', `/media/${t.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: bytes.length, width: 11 },
    });
    expect(wrongDims.status).toBe(400);
    expect(wrongDims.body.error.details.issues[0].path).toEqual(['width']);

    const short = await ask({ filename: 'b.png', contentType: 'image/png', size: bytes.length + 10 });
    if (store === 'file') {
      const res = await sendBytes(cms, short, bytes);
      expect(res.body.error.code).toBe('UPLOAD_SIZE_MISMATCH');
    } else {
      await sendBytes(cms, short, bytes);
      const res = await call(cms, 'POST', `/media/${short.mediaId}/confirm`, {
        token: cms.adminToken,
        body: { size: bytes.length + 10 },
      });
      expect(res.body.error).toMatchObject({ code: 'UPLOAD_SIZE_MISMATCH', details: { uploaded: bytes.length } });
    }

    const html = Buffer.from('<html><body><script>alert(1)</script></body></html>');
    const disguised = await ask({ filename: 'c.png', contentType: 'image/png', size: html.length });
    await sendBytes(cms, disguised, html);
    const refused = await call(cms, 'POST', `/media/${disguised.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: html.length },
    });
    expect(refused.body.error).toMatchObject({
      code: 'INVALID_TYPE',
      details: { declared: 'image/png', detected: 'text/html' },
    });

    const hashed = await ask({
      filename: 'd.png',
      contentType: 'image/png',
      size: bytes.length,
      contentHash: sha(Buffer.from('x')),
    });
    await sendBytes(cms, hashed, bytes);
    const badHash = await call(cms, 'POST', `/media/${hashed.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: bytes.length },
    });
    expect(badHash.body.error.details.issues[0].path).toEqual(['contentHash']);

    const disallowed = await call(cms, 'POST', '/media/upload-url', {
      token: cms.adminToken,
      body: { filename: 'x.html', contentType: 'text/html', size: 10 },
    });
    expect(disallowed.body.error.code).toBe('INVALID_TYPE');
    const huge = await call(cms, 'POST', '/media/upload-url', {
      token: cms.adminToken,
      body: { filename: 'x.png', contentType: 'image/png', size: 1e12 },
    });
    expect(huge.status).toBe(413);
  });

  it('confirming bytes already in the library answers the existing item and drops the pending one', async () => {
    const cms = await open();
    const bytes = await png(9, 9);
    const existing = await uploaded(cms, bytes);
    const t = (
      await call(cms, 'POST', '/media/upload-url', {
        token: cms.adminToken,
        body: { filename: 'dup.png', contentType: 'image/png', size: bytes.length },
      })
    ).body.data;
    await sendBytes(cms, t, bytes);
    const res = await call(cms, 'POST', `/media/${t.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: bytes.length },
    });
    expect(res.body.data).toMatchObject({ deduplicated: true, item: { id: existing.id } });
    expect((await call(cms, 'GET', `/media/${t.mediaId}`, { token: cms.adminToken })).status).toBe(404);
    expect(await cms.storedKeys()).toEqual([existing.storageKey]);
  });

  it('keeps pending uploads to their uploader: others get NOT_FOUND', async () => {
    const cms = await open();
    const other = await cms.userToken(40);
    const bytes = await png(5, 5);
    const t = (
      await call(cms, 'POST', '/media/upload-url', {
        token: cms.adminToken,
        body: { filename: 'mine.png', contentType: 'image/png', size: bytes.length },
      })
    ).body.data;
    const theirs = await call(cms, 'POST', `/media/${t.mediaId}/confirm`, {
      token: other.token,
      body: { size: bytes.length },
    });
    expect(theirs.status).toBe(404);
    if (store === 'file') {
      const put = await sendBytes(cms, t, bytes, other.token);
      expect(put.status).toBe(404);
    }
    const absent = await call(cms, 'POST', '/media/01ARZ3NDEKTSV4RRFFQ69G5FAV/confirm', {
      token: cms.adminToken,
      body: { size: 1 },
    });
    expect(absent.body.error.code).toBe('NOT_FOUND');
  });

  it('sweeps abandoned pending uploads and their bytes after they expire', async () => {
    const clock = new ManualClock(new Date());
    const cms = await open({ clock });
    const bytes = await png(7, 7);
    const ask = async () =>
      (
        await call(cms, 'POST', '/media/upload-url', {
          token: cms.adminToken,
          body: { filename: 'p.png', contentType: 'image/png', size: bytes.length },
        })
      ).body.data;
    const abandoned = await ask();
    await sendBytes(cms, abandoned, bytes);
    const kept = await uploaded(cms, await png(6, 6));
    expect(await cms.services.media.sweeper.runOnce()).toEqual({ removed: 0, staged: 0 });
    clock.advance(3600_000 + 1);
    const late = await call(cms, 'POST', `/media/${abandoned.mediaId}/confirm`, {
      token: cms.adminToken,
      body: { size: bytes.length },
    });
    expect(late.body.error.code).toBe('INVALID_STATE');
    expect(await cms.services.media.sweeper.runOnce()).toEqual({ removed: 1, staged: 0 });
    expect((await call(cms, 'GET', `/media/${abandoned.mediaId}`, { token: cms.adminToken })).status).toBe(404);
    expect(await cms.storedKeys()).toEqual([kept.storageKey]);
  });

  it('sweeps staged files a dead process left once they are an hour old, and no others', async () => {
    const cms = await open();
    const dir = join(cms.dataDir, 'tmp', 'uploads');
    mkdirSync(dir, { recursive: true });
    // What a kill -9 mid-upload leaves: a partial staged file nothing will move or remove.
    const dead = `${newId()}.upload`;
    const fresh = `${newId()}.upload`;
    writeFileSync(join(dir, dead), 'partial');
    writeFileSync(join(dir, fresh), 'in flight');
    writeFileSync(join(dir, 'notes.txt'), 'not a staged file');
    const hourAgo = new Date(Date.now() - STAGED_GRACE_MS - 1000);
    utimesSync(join(dir, dead), hourAgo, hourAgo);
    utimesSync(join(dir, 'notes.txt'), hourAgo, hourAgo);
    expect(await cms.services.media.sweeper.runOnce()).toEqual({ removed: 0, staged: 1 });
    expect(stagedLeftovers(cms).sort()).toEqual([fresh, 'notes.txt'].sort());
  });
});

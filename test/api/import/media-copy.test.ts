/** POST /import/blogplatform/media: copy, SHA-1 dedupe, safe reruns, per-file failures, NDJSON, permissions. */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Actor } from '../../../src/auth/actor.js';
import { ROLES } from '../../../src/auth/roles.js';
import { call } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { jpeg, type MediaCms, mediaCms, png, stagedLeftovers, upload, uploaded } from '../../helpers/media.js';
import { sessionFor } from '../../helpers/session.js';
import { waitFor } from '../../helpers/wait.js';

const MAX = 200_000;
let server: Server;
let base = '';
const files: Record<string, { type: string; body: Buffer }> = {};
const hits: string[] = [];
const endless = { sent: 0, closed: null as Promise<void> | null };

beforeAll(async () => {
  const red = await png(40, 30);
  files['/wp-content/uploads/red.png'] = { type: 'image/png', body: red };
  // Same bytes under another name: filename equality plays no part, bytes do.
  files['/wp-content/uploads/copy-of-red.png'] = { type: 'image/png', body: red };
  files['/wp-content/uploads/photo.jpg'] = { type: 'image/jpeg', body: await jpeg(30, 20) };
  files['/wp-content/uploads/green.png'] = { type: 'image/png', body: await png(10, 10, { r: 0, g: 200, b: 0 }) };
  files['/wp-content/uploads/huge.png'] = { type: 'image/png', body: Buffer.concat([red, Buffer.alloc(MAX)]) };
  files['/wp-content/uploads/page.png'] = {
    type: 'image/png',
    body: Buffer.from('<!doctype html><p>not an image</p>'),
  };
  server = createServer((req, res) => {
    hits.push(String(req.url));
    if (req.url === '/wp-content/uploads/endless.png') {
      // No declared length and no end: only counting the bytes as they come stops it.
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.concat([files['/wp-content/uploads/red.png'].body, Buffer.alloc(16 * 1024)]);
      endless.closed = new Promise<void>((done) => res.once('close', () => done()));
      const pump = () => {
        while (!res.destroyed) {
          endless.sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
      return;
    }
    if (req.url === '/wp-content/uploads/slow.png') {
      // The first bytes, then nothing: the download is in flight until it is stopped.
      res
        .writeHead(200, { 'content-type': 'image/png' })
        .write(files['/wp-content/uploads/red.png'].body.subarray(0, 100));
      return;
    }
    const f = files[String(req.url)];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': f.type }).end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const u = (name: string) => `${base}/wp-content/uploads/${name}`;
const sha1 = (b: Buffer) => `sha1:${createHash('sha1').update(b).digest('hex')}`;

function site(dialect: Parameters<typeof mediaCms>[0]) {
  return mediaCms(dialect, 'file', { config: { importAllowPrivateHosts: true, maxUploadSize: MAX } });
}

async function copy(cms: MediaCms, attachments: unknown[], extra: Record<string, unknown> = {}) {
  return call(cms, 'POST', '/import/blogplatform/media', {
    token: cms.adminToken,
    body: { attachments, stream: false, ...extra },
  });
}

async function mediaRows(cms: MediaCms) {
  return (cms.ctx.db as any).selectFrom('_cms_media').selectAll().orderBy('created_at').execute();
}

describeEachDialect('WordPress media copy', (dialect) => {
  it('copies files, reuses identical bytes (an earlier upload too), and lists each failure with its reason', async () => {
    const cms = await site(dialect);
    const upload = await uploaded(cms, files['/wp-content/uploads/green.png'].body, { name: 'mine.png' });
    const attachments = [
      { sourceId: 10, url: u('red.png'), title: 'Red' },
      { sourceId: 11, url: u('copy-of-red.png') },
      { sourceId: 12, url: u('photo.jpg'), filename: 'holiday.jpg', alt: 'A blue sky', caption: 'Holiday' },
      { sourceId: 13, url: u('green.png') },
      { sourceId: 14, url: u('missing.png') },
      { sourceId: 15, url: u('huge.png') },
      { sourceId: 16, url: u('page.png') },
      { sourceId: 17, url: 'ftp://example.test/file.png' },
    ];
    const res = await copy(cms, attachments);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.data;
    expect(r.imported).toBe(2);
    expect(r.reused).toBe(2);
    expect(Object.fromEntries(r.failed.map((f: any) => [f.sourceId, f.reason]))).toEqual({
      14: 'HTTP_STATUS',
      15: 'TOO_LARGE',
      16: 'TYPE_NOT_ALLOWED',
      17: 'BAD_URL',
    });
    for (const f of r.failed) expect(f.message).toBeTruthy();
    expect(Object.keys(r.urlMap).sort()).toEqual([u('copy-of-red.png'), u('green.png'), u('photo.jpg'), u('red.png')]);
    // The two names of the red box share one item; the green file is the earlier upload.
    expect(r.mediaIds[u('red.png')]).toBe(r.mediaIds[u('copy-of-red.png')]);
    expect(r.mediaIds[u('green.png')]).toBe(upload.id);
    expect(r.urlMap[u('green.png')]).toBe(upload.url);

    const rows = await mediaRows(cms);
    expect(rows).toHaveLength(3);
    const red = rows.find((x: any) => x.id === r.mediaIds[u('red.png')]);
    expect(red.import_key).toBe(sha1(files['/wp-content/uploads/red.png'].body));
    expect(red.dedupe_key).toMatch(/^sha256:/);
    const green = rows.find((x: any) => x.id === upload.id);
    expect(green.import_key).toBe(sha1(files['/wp-content/uploads/green.png'].body));

    // Stored like an upload: facts, placeholder, the given filename (else the URL's), alt and caption.
    const photoId = r.mediaIds[u('photo.jpg')];
    const item = (await call(cms, 'GET', `/media/${photoId}`, { token: cms.adminToken })).body.data.item;
    expect(item).toMatchObject({ filename: 'holiday.jpg', mimeType: 'image/jpeg', width: 30, height: 20 });
    expect(item.alt).toBe('A blue sky');
    expect(item.caption).toBe('Holiday');
    expect(item.placeholder).toBeTruthy();
    // The red bytes were fetched under two names at once: either name may be the one kept.
    expect(['red.png', 'copy-of-red.png']).toContain(red.filename);
    expect([red.width, red.height, red.mime_type]).toEqual([40, 30, 'image/png']);
    const served = await cms.app.request(new URL(r.urlMap[u('photo.jpg')]).pathname);
    expect(Buffer.from(await served.arrayBuffer()).equals(files['/wp-content/uploads/photo.jpg'].body)).toBe(true);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('counts the bytes of a body without a declared length against maxUploadSize', async () => {
    const cms = await site(dialect);
    endless.sent = 0;
    const res = await copy(cms, [{ sourceId: 1, url: u('endless.png') }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.failed).toMatchObject([{ sourceId: 1, reason: 'TOO_LARGE' }]);
    await endless.closed;
    // Dropped soon after the limit (socket buffers aside), not read on.
    expect(endless.sent).toBeLessThan(MAX + 8 * 1024 * 1024);
    expect(await mediaRows(cms)).toEqual([]);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('is safe to rerun: nothing is imported twice and the URL map is complete', async () => {
    const cms = await site(dialect);
    const attachments = [{ url: u('red.png') }, { url: u('photo.jpg') }, { url: u('missing.png') }];
    const first = (await copy(cms, attachments)).body.data;
    expect(first.imported).toBe(2);
    const keys = (await cms.storedKeys()).length;
    const second = await copy(cms, attachments);
    expect(second.status).toBe(200);
    expect(second.body.data.imported).toBe(0);
    expect(second.body.data.reused).toBe(2);
    expect(second.body.data.urlMap).toEqual(first.urlMap);
    expect(second.body.data.failed.map((f: any) => f.url)).toEqual([u('missing.png')]);
    expect(await mediaRows(cms)).toHaveLength(2);
    expect(await cms.storedKeys()).toHaveLength(keys);
  });

  it('stops downloads in flight when the client goes away, leaving no staged file', async () => {
    const cms = await site(dialect);
    const run = await cms.services.importMedia.start(
      (await cms.services.tokens.authenticate(cms.adminToken)) as Actor,
      {
        attachments: [{ url: u('slow.png') }, { url: u('red.png') }],
      },
    );
    const gone = new AbortController();
    const asked = hits.filter((h) => h === '/wp-content/uploads/slow.png').length;
    const finished: string[] = [];
    const t0 = Date.now();
    const pending = run((p) => {
      if (p.type === 'progress') finished.push(p.url);
    }, gone.signal);
    // The client goes away once the other file is in and the slow download is in flight (the server has its request).
    await waitFor(
      () => finished.includes(u('red.png')) && hits.filter((h) => h === '/wp-content/uploads/slow.png').length > asked,
      { what: 'red.png to be copied while slow.png downloads' },
    );
    gone.abort();
    const r = await pending;
    // Far below the 60 s download deadline: the abort, not the deadline, ended it.
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(r.failed).toEqual([expect.objectContaining({ url: u('slow.png'), reason: 'ABORTED' })]);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('a replaced file no longer answers for the bytes it was imported from', async () => {
    const cms = await site(dialect);
    const first = (await copy(cms, [{ url: u('red.png') }])).body.data;
    const id = first.mediaIds[u('red.png')];
    const replaced = await upload(cms, await png(5, 5), { path: `/media/${id}/replace`, method: 'PUT' });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const row = (await mediaRows(cms)).find((x: any) => x.id === id);
    expect(row.import_key).toBeNull();
    const again = (await copy(cms, [{ url: u('red.png') }])).body.data;
    expect(again.imported).toBe(1);
    expect(again.mediaIds[u('red.png')]).not.toBe(id);
  });

  it('reuses an item found by SHA-1 only when its SHA-256 matches too', async () => {
    const cms = await site(dialect);
    const first = (await copy(cms, [{ url: u('red.png') }])).body.data;
    const redId = first.mediaIds[u('red.png')];
    // Simulate a crafted SHA-1 collision: the red item claims the key of the photo's bytes.
    await (cms.ctx.db as any)
      .updateTable('_cms_media')
      .set({ import_key: sha1(files['/wp-content/uploads/photo.jpg'].body) })
      .where('id', '=', redId)
      .execute();
    const res = (await copy(cms, [{ url: u('photo.jpg') }])).body.data;
    expect(res.imported).toBe(1);
    expect(res.mediaIds[u('photo.jpg')]).not.toBe(redId);
    const photo = (await mediaRows(cms)).find((x: any) => x.id === res.mediaIds[u('photo.jpg')]);
    expect(photo.mime_type).toBe('image/jpeg');
    expect(photo.import_key).toBeNull();
  });

  it('streams one NDJSON progress record per attachment, then the result record', async () => {
    const cms = await site(dialect);
    const attachments = [{ url: u('red.png'), sourceId: 'a' }, { url: u('missing.png') }, { url: u('red.png') }];
    const res = await cms.app.request('/_cms/api/import/blogplatform/media', {
      method: 'POST',
      headers: { authorization: `Bearer ${cms.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ attachments }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    const records = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(4);
    const progress = records.slice(0, 3);
    for (const p of progress) expect(p).toMatchObject({ type: 'progress', total: 3 });
    expect(progress.map((p) => p.index).sort()).toEqual([0, 1, 2]);
    const byIndex = Object.fromEntries(progress.map((p) => [p.index, p]));
    expect(byIndex[0]).toMatchObject({ status: 'imported', sourceId: 'a', url: u('red.png') });
    expect(byIndex[0].mediaId).toBeTruthy();
    expect(byIndex[1]).toMatchObject({ status: 'failed', reason: 'HTTP_STATUS' });
    expect(byIndex[2]).toMatchObject({ status: 'reused', mediaId: byIndex[0].mediaId });
    const result = records[3];
    expect(result.type).toBe('result');
    expect(result.success).toBeUndefined();
    expect(result).toMatchObject({ imported: 1, reused: 1, urlMap: { [u('red.png')]: byIndex[0].newUrl } });
    expect(result.failed).toHaveLength(1);
  });

  it('refuses bad input before any download', async () => {
    const cms = await site(dialect);
    const before = hits.length;
    const empty = await copy(cms, []);
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');
    const extra = await copy(cms, [{ url: u('red.png'), evil: true }]);
    expect(extra.status).toBe(400);
    const folder = await copy(cms, [{ url: u('red.png') }], { folderId: 'nope' });
    expect(folder.status).toBe(404);
    expect(hits.length).toBe(before);
  });

  it('needs an Admin; a session must send X-CMS-Request', async () => {
    const cms = await site(dialect);
    const body = { attachments: [{ url: u('red.png') }], stream: false };
    const anonymous = await call(cms, 'POST', '/import/blogplatform/media', { body });
    expect(anonymous.status).toBe(401);
    const editor = await cms.userToken(ROLES.EDITOR);
    const refused = await call(cms, 'POST', '/import/blogplatform/media', { token: editor.token, body });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const browser = await sessionFor(cms, cms.adminId);
    const noHeader = await browser.call('POST', '/import/blogplatform/media', { body, csrf: false });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.error.code).toBe('CSRF_REJECTED');
    expect(await mediaRows(cms)).toHaveLength(0);
    const ok = await browser.call('POST', '/import/blogplatform/media', { body });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.imported).toBe(1);
  });
});

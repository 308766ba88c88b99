import sharp from 'sharp';
import { expect, it } from 'vitest';
import { call } from '../../helpers/cms.js';
import {
  describeEachStore,
  jpeg,
  mediaCms,
  png,
  stagedLeftovers,
  startS3,
  upload,
  uploaded,
} from '../../helpers/media.js';

const s3 = startS3();

describeEachStore('Direct upload', (dialect, store) => {
  const open = (config = {}) => mediaCms(dialect, store, { s3, config });

  it('stores a new image as a ready item with facts from its bytes (201)', async () => {
    const cms = await open();
    const bytes = await png(40, 30);
    const res = await upload(cms, bytes, { name: 'red.png', fields: { alt: 'A red box', caption: '' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { item, deduplicated } = res.body.data;
    expect(deduplicated).toBe(false);
    expect(item).toMatchObject({
      status: 'ready',
      filename: 'red.png',
      mimeType: 'image/png',
      size: bytes.length,
      width: 40,
      height: 30,
      alt: 'A red box',
      caption: null,
      folderId: null,
    });
    expect(item.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(typeof item.placeholder).toBe('string');
    expect(item.storageKey).toMatch(/^[0-9A-Z]{26}\.png$/);
    expect(item.url).toBe(`http://localhost:4321/_cms/api/media/file/${item.id}`);
    expect(await cms.storedKeys()).toEqual([item.storageKey]);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('answers identical bytes with the existing item (200, deduplicated), without applying alt or caption', async () => {
    const cms = await open();
    const bytes = await png(12, 12);
    const first = await uploaded(cms, bytes, { fields: { alt: 'first' } });
    const again = await upload(cms, bytes, { name: 'other-name.png', fields: { alt: 'second', caption: 'new' } });
    expect(again.status).toBe(200);
    expect(again.body.data.deduplicated).toBe(true);
    expect(again.body.data.item).toMatchObject({ id: first.id, alt: 'first', caption: null, filename: 'picture.png' });
    expect(await cms.storedKeys()).toHaveLength(1);
  });

  it('turns two concurrent identical uploads into one item', async () => {
    const cms = await open();
    const bytes = await png(64, 64, { r: 1, g: 2, b: 3 });
    const results = await Promise.all([upload(cms, bytes), upload(cms, bytes), upload(cms, bytes)]);
    const ids = new Set(results.map((r) => r.body.data?.item?.id));
    expect(ids.size, JSON.stringify(results.map((r) => r.body))).toBe(1);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    const list = await call(cms, 'GET', '/media', { token: cms.adminToken });
    expect(list.body.data.items).toHaveLength(1);
    expect(await cms.storedKeys()).toHaveLength(1);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('refuses a file above maxUploadSize with 413 and stores nothing', async () => {
    const cms = await open({ maxUploadSize: 2048 });
    const res = await upload(cms, Buffer.alloc(5000, 1), { name: 'big.bin', type: 'application/octet-stream' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.error.details.maxUploadSize).toBe(2048);
    expect(await cms.storedKeys()).toEqual([]);
    expect(stagedLeftovers(cms)).toEqual([]);
    const list = await call(cms, 'GET', '/media', { token: cms.adminToken });
    expect(list.body.data.items).toEqual([]);
  });

  it('refuses a declared Content-Length above the limit before reading the body', async () => {
    const cms = await open({ maxUploadSize: 2048 });
    let pulled = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const res = await cms.app.request('/_cms/api/media', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${cms.adminToken}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(50 * 1024 * 1024),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('counts the bytes of an upload sent without Content-Length, and stops at the limit', async () => {
    const cms = await open({ maxUploadSize: 4096 });
    const boundary = 'b0undary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(head));
        sent += 1024;
        if (sent > 64 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(1024).fill(sent & 255));
      },
    });
    const res = await cms.app.request('/_cms/api/media', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${cms.adminToken}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024);
    expect(await cms.storedKeys()).toEqual([]);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('answers NO_FILE without a file part, and names bad text parts', async () => {
    const cms = await open();
    const form = new FormData();
    form.append('alt', 'no file here');
    const res = await cms.app.request('/_cms/api/media', {
      method: 'POST',
      headers: { authorization: `Bearer ${cms.adminToken}` },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('NO_FILE');

    const nul = await upload(cms, await png(), { fields: { alt: 'bad\u0000alt' } });
    expect(nul.status).toBe(400);
    expect(nul.body.error.code).toBe('VALIDATION_ERROR');
    expect(nul.body.error.details.issues[0].path).toEqual(['alt']);
    const unknown = await upload(cms, await png(), { fields: { title: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.issues[0].path).toEqual(['title']);
    const long = await upload(cms, await png(), { fields: { alt: 'x'.repeat(1001) } });
    expect(long.status).toBe(400);
    expect(long.body.error.details.issues[0].path).toEqual(['alt']);
    expect(await cms.storedKeys()).toEqual([]);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('sniffs the type from the bytes: a mismatch or a disallowed type is INVALID_TYPE', async () => {
    const cms = await open();
    const html = '<!doctype html><html><script>alert(1)</script></html>';
    const disguised = await upload(cms, html, { name: 'cat.png', type: 'image/png' });
    expect(disguised.status).toBe(400);
    expect(disguised.body.error.code).toBe('INVALID_TYPE');
    expect(disguised.body.error.details).toMatchObject({ declared: 'image/png', detected: 'text/html' });
    const honest = await upload(cms, html, { name: 'page.html', type: 'text/html' });
    expect(honest.status).toBe(400);
    expect(honest.body.error.code).toBe('INVALID_TYPE');
    // A JPEG named .png is a JPEG: same kind of file, the bytes decide.
    const jpg = await uploaded(cms, await jpeg(), { name: 'photo.png', type: 'image/png' });
    expect(jpg.mimeType).toBe('image/jpeg');
    expect(jpg.storageKey).toMatch(/\.jpg$/);
    // Plain text keeps the text type it was sent as.
    const csv = await uploaded(cms, 'a,b\n1,2\n', { name: 'data.csv', type: 'text/csv' });
    expect(csv.mimeType).toBe('text/csv');
    const restricted = await mediaCms(dialect, store, { s3, config: { mediaAllowedTypes: ['image/*'] } });
    const pdfRefused = await upload(restricted, '%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF', {
      name: 'doc.pdf',
      type: 'application/pdf',
    });
    expect(pdfRefused.status).toBe(400);
    expect(pdfRefused.body.error).toMatchObject({ code: 'INVALID_TYPE', details: { detected: 'application/pdf' } });
  });

  it("applies a field's allowedMimeTypes with fieldId", async () => {
    const cms = await open();
    const created = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: {
        slug: 'posts',
        label: 'Posts',
        fields: [{ slug: 'cover', label: 'Cover', type: 'image', validation: { allowedMimeTypes: ['image/jpeg'] } }],
      },
    });
    const fieldId = created.body.data.fields.find((f: any) => f.slug === 'cover').id;
    const refused = await upload(cms, await png(), { fields: { fieldId } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_TYPE', details: { field: 'posts.cover' } });
    await uploaded(cms, await jpeg(), { name: 'ok.jpg', type: 'image/jpeg', fields: { fieldId } });
    const unknown = await upload(cms, await png(), { fields: { fieldId: 'nope' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.issues[0].path).toEqual(['fieldId']);
  });

  it('reports width and height as displayed (EXIF orientation) and refuses decompression bombs', async () => {
    const cms = await open({ maxImagePixels: 1_000_000 });
    const rotated = await uploaded(cms, await jpeg(60, 20, { orientation: 6 }), { name: 'r.jpg', type: 'image/jpeg' });
    expect([rotated.width, rotated.height]).toEqual([20, 60]);
    // 3000 × 3000 of one colour compresses to a few kilobytes but decodes to 9 megapixels.
    const bomb = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#000' } })
      .png({ palette: true, compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(20_000);
    const res = await upload(cms, bomb, { name: 'bomb.png' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.issues[0].path).toEqual(['file']);
    const broken = await upload(cms, Buffer.concat([(await png()).subarray(0, 60)]), { name: 'cut.png' });
    expect(broken.status).toBe(400);
    expect(await cms.storedKeys()).toEqual([rotated.storageKey]);
  });

  it('takes width, height and a thumbnail placeholder for files the server does not measure', async () => {
    const cms = await open();
    const item = await uploaded(cms, '%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n', {
      name: 'report.pdf',
      type: 'application/pdf',
      fields: { width: '600', height: '800' },
      thumbnail: { bytes: await png(16, 20) },
    });
    expect(item).toMatchObject({ mimeType: 'application/pdf', width: 600, height: 800 });
    expect(typeof item.placeholder).toBe('string');
    const badThumb = await upload(cms, 'plain text file', {
      name: 'notes.txt',
      type: 'text/plain',
      thumbnail: { bytes: Buffer.from('not an image') },
    });
    expect(badThumb.status).toBe(400);
    expect(badThumb.body.error.details.issues[0].path).toEqual(['thumbnail']);
    expect(stagedLeftovers(cms)).toEqual([]);
  });
});

import { expect, it } from 'vitest';
import { call } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms, png, startS3, uploaded } from '../../helpers/media.js';

const s3 = startS3();

const SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';

describeEachDialect('Media files served by the service (file system)', (dialect) => {
  it('serves bytes with type, ETag, nosniff and caching by address', async () => {
    const cms = await mediaCms(dialect, 'file');
    const bytes = await png(16, 16);
    const item = await uploaded(cms, bytes);
    // Anyone may fetch a ready file: no credentials.
    const byId = await cms.app.request(`/_cms/api/media/file/${item.id}`);
    expect(byId.status).toBe(200);
    expect(Buffer.from(await byId.arrayBuffer()).equals(bytes)).toBe(true);
    expect(byId.headers.get('content-type')).toBe('image/png');
    expect(byId.headers.get('content-length')).toBe(String(bytes.length));
    expect(byId.headers.get('x-content-type-options')).toBe('nosniff');
    expect(byId.headers.get('content-disposition')).toMatch(/^inline; filename="picture.png"/);
    expect(byId.headers.get('content-security-policy')).toContain('sandbox');
    expect(byId.headers.get('etag')).toBe(`"${item.contentHash.slice('sha256:'.length)}"`);
    expect(byId.headers.get('cache-control')).toBe('public, no-cache');

    const byKey = await cms.app.request(new URL(item.immutableUrl).pathname);
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const revalidated = await cms.app.request(`/_cms/api/media/file/${item.id}`, {
      headers: { 'if-none-match': byId.headers.get('etag') as string },
    });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');

    const head = await cms.app.request(`/_cms/api/media/file/${item.id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    for (const ref of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAV.png', '..%2F..%2Fetc%2Fpasswd', 'x']) {
      expect((await cms.app.request(`/_cms/api/media/file/${ref}`)).status, ref).toBe(404);
    }
  });

  it('answers byte ranges (206), unsatisfiable ranges (416) and If-Range', async () => {
    const cms = await mediaCms(dialect, 'file');
    const bytes = await png(20, 20);
    const item = await uploaded(cms, bytes);
    const url = `/_cms/api/media/file/${item.id}`;
    const part = await cms.app.request(url, { headers: { range: 'bytes=2-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 2-9/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(2, 10))).toBe(true);
    const tail = await cms.app.request(url, { headers: { range: 'bytes=-4' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 4))).toBe(true);
    const open = await cms.app.request(url, { headers: { range: `bytes=${bytes.length - 3}-` } });
    expect(open.headers.get('content-length')).toBe('3');
    const beyond = await cms.app.request(url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    const stale = await cms.app.request(url, { headers: { range: 'bytes=0-1', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
    const multi = await cms.app.request(url, { headers: { range: 'bytes=0-1,4-5' } });
    expect(multi.status).toBe(200);
  });

  it('serves SVG only as a download under a sandboxing policy, and never pending uploads', async () => {
    const cms = await mediaCms(dialect, 'file');
    const svg = await uploaded(cms, SVG, { name: 'logo.svg', type: 'image/svg+xml' });
    expect(svg.mimeType).toBe('image/svg+xml');
    const res = await cms.app.request(`/_cms/api/media/file/${svg.id}`);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="logo.svg"/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');

    const bytes = await png(3, 3);
    const t = (
      await call(cms, 'POST', '/media/upload-url', {
        token: cms.adminToken,
        body: { filename: 'p.png', contentType: 'image/png', size: bytes.length },
      })
    ).body.data;
    await cms.app.request(t.uploadUrl, {
      method: 'PUT',
      headers: { authorization: `Bearer ${cms.adminToken}` },
      body: new Uint8Array(bytes),
    });
    expect((await cms.app.request(`/_cms/api/media/file/${t.mediaId}`)).status).toBe(404);
    expect((await cms.app.request(`/_cms/api/media/file/${t.storageKey}`)).status).toBe(404);
  });
});

describeEachDialect('Media files on S3-compatible storage', (dialect) => {
  it('redirects to a presigned URL that serves the right type and ranges', async () => {
    const cms = await mediaCms(dialect, 's3', { s3 });
    const bytes = await png(12, 12);
    const item = await uploaded(cms, bytes);
    const res = await cms.app.request(`/_cms/api/media/file/${item.id}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
    const location = res.headers.get('location') as string;
    expect(location).toMatch(/X-Amz-Signature=/);
    const got = await fetch(location, { headers: { range: 'bytes=0-7' } });
    expect(got.status).toBe(206);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes.subarray(0, 8))).toBe(true);
    const byKey = await cms.app.request(`/_cms/api/media/file/${item.storageKey}`);
    expect(byKey.status).toBe(302);
    expect(byKey.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const svg = await uploaded(cms, SVG, { name: 'logo.svg', type: 'image/svg+xml' });
    const svgFile = await fetch(
      (await cms.app.request(`/_cms/api/media/file/${svg.id}`)).headers.get('location') as string,
    );
    expect(svgFile.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('points at the public base URL when one is configured', async () => {
    const cms = await mediaCms(dialect, 's3', { s3, publicBase: true });
    const bytes = await png(4, 4);
    const item = await uploaded(cms, bytes);
    const fixture = s3();
    expect(item.immutableUrl).toMatch(new RegExp(`^${fixture.endpoint}/media/t\\d+-\\d+/${item.storageKey}$`));
    const byKey = await cms.app.request(`/_cms/api/media/file/${item.storageKey}`);
    expect(byKey.status).toBe(302);
    expect(byKey.headers.get('location')).toBe(item.immutableUrl);
    expect(byKey.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const direct = await fetch(item.immutableUrl);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('content-type')).toBe('image/png');
    expect(direct.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await direct.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

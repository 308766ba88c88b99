/**
 * An empty body on `PUT /admin/transfer/imports/{id}/files/{path}` is decided by the manifest: it is
 * the file when the manifest lists it with size 0, a missing upload body (NO_FILE) otherwise, the
 * same however the client sends nothing.
 */
import { request as httpRequest } from 'node:http';
import { expect, it } from 'vitest';
import { call, type TestCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { serve } from '../../helpers/mcp.js';
import { mediaCms } from '../../helpers/media.js';
import { fetchBytes, putFile, runExport, sha256, untar } from '../../helpers/transfer.js';

type Empty = 'no body' | 'zero-length body' | 'Content-Length: 0' | 'chunked, no chunk';
const WAYS: Empty[] = ['no body', 'zero-length body', 'Content-Length: 0', 'chunked, no chunk'];

async function putEmpty(cms: TestCms, id: string, path: string, how: Empty): Promise<{ status: number; body: any }> {
  const url = `/_cms/api/admin/transfer/imports/${id}/files/${encodeURIComponent(path)}`;
  const headers = { authorization: `Bearer ${cms.adminToken}`, 'content-type': 'application/octet-stream' };
  if (how === 'no body' || how === 'zero-length body') {
    const res = await cms.app.request(url, {
      method: 'PUT',
      headers,
      ...(how === 'zero-length body' ? { body: new Uint8Array(0) } : {}),
    });
    return { status: res.status, body: await res.json() };
  }
  const base = new URL(await serve(cms));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: 'PUT',
        path: url,
        headers: {
          ...headers,
          ...(how === 'Content-Length: 0' ? { 'content-length': '0' } : { 'transfer-encoding': 'chunked' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const EMPTY_MEDIA = 'media/01ARZ3NDEKTSV4RRFFQ69G5FAV.png';

describeEachDialect('site import: empty file uploads', (dialect) => {
  it('an empty body is the file when the manifest says 0 bytes, NO_FILE when it says more', async () => {
    const source = await mediaCms(dialect);
    const op = await runExport(source, source.adminToken);
    const archive = (await fetchBytes(source, `/admin/transfer/exports/${op.id}/archive`, source.adminToken)).bytes;
    const [manifestEntry, first] = await untar(archive);
    const manifest = JSON.parse(manifestEntry.data.toString('utf8'));
    manifest.files.push({ path: EMPTY_MEDIA, kind: 'mediaFile', size: 0, sha256: sha256(Buffer.alloc(0)) });
    expect(first.data.length).toBeGreaterThan(0);

    const target = await mediaCms(dialect);
    for (const how of WAYS) {
      const created = await call(target, 'POST', '/admin/transfer/imports', { token: target.adminToken });
      const id = created.body.data.id as string;
      // The manifest itself is never empty.
      const noManifest = await putEmpty(target, id, 'manifest.json', how);
      expect([how, noManifest.status, noManifest.body.error?.code]).toEqual([how, 400, 'NO_FILE']);
      expect(
        (await putFile(target, target.adminToken, id, 'manifest.json', Buffer.from(JSON.stringify(manifest)))).status,
      ).toBe(200);

      const missing = await putEmpty(target, id, first.name, how);
      expect([how, missing.status, missing.body.error?.code]).toEqual([how, 400, 'NO_FILE']);
      const empty = await putEmpty(target, id, EMPTY_MEDIA, how);
      expect([how, empty.status, empty.body.error?.code]).toEqual([how, 200, undefined]);
      // Bytes where the manifest says none are a size mismatch.
      const extra = await putFile(target, target.adminToken, id, EMPTY_MEDIA, Buffer.from('x'));
      expect(extra.body.error.code).toBe('UPLOAD_SIZE_MISMATCH');

      const left = await call(target, 'GET', `/admin/transfer/imports/${id}/missing?limit=100`, {
        token: target.adminToken,
      });
      const paths = left.body.data.items.map((i: any) => i.path);
      expect(paths).toContain(first.name);
      expect(paths).not.toContain(EMPTY_MEDIA);
    }
  });
});

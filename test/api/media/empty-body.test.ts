/**
 * A missing upload body is NO_FILE on every upload route (spec 1, errors table), however the client
 * sends "nothing": no body at all, `Content-Length: 0`, or a chunked body that ends at once.
 */
import { request as httpRequest } from 'node:http';
import { expect, it } from 'vitest';
import { call } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { serve } from '../../helpers/mcp.js';
import { type MediaCms, mediaCms, png, stagedLeftovers } from '../../helpers/media.js';

type Empty = 'no body' | 'zero-length body' | 'Content-Length: 0' | 'chunked, no chunk';

/** Send an empty body the given way (the last two over a real connection), answer status and envelope. */
async function sendEmpty(
  cms: MediaCms,
  method: string,
  path: string,
  how: Empty,
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const all = { authorization: `Bearer ${cms.adminToken}`, ...headers };
  if (how === 'no body' || how === 'zero-length body') {
    const res = await cms.app.request(`/_cms/api${path}`, {
      method,
      headers: all,
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
        method,
        path: `/_cms/api${path}`,
        headers: {
          ...all,
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

const WAYS: Empty[] = ['no body', 'zero-length body', 'Content-Length: 0', 'chunked, no chunk'];

describeEachDialect('Empty upload bodies', (dialect) => {
  it('PUT /media/{id}/upload: NO_FILE, and the pending item still takes its bytes afterwards', async () => {
    const cms = await mediaCms(dialect);
    const bytes = await png(6, 6);
    const target = await call(cms, 'POST', '/media/upload-url', {
      token: cms.adminToken,
      body: { filename: 'a.png', contentType: 'image/png', size: bytes.length },
    });
    const { mediaId } = target.body.data;
    for (const how of WAYS) {
      const res = await sendEmpty(cms, 'PUT', `/media/${mediaId}/upload`, how, { 'content-type': 'image/png' });
      expect([how, res.status, res.body.error?.code]).toEqual([how, 400, 'NO_FILE']);
    }
    const sent = await cms.app.request(`/_cms/api/media/${mediaId}/upload`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${cms.adminToken}`, 'content-type': 'image/png' },
      body: new Uint8Array(bytes),
    });
    expect(sent.status).toBe(200);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('multipart uploads: NO_FILE for an empty body, a body without a file part, and an empty file', async () => {
    const cms = await mediaCms(dialect);
    const multipart = { 'content-type': 'multipart/form-data; boundary=xyz' };
    for (const [method, path] of [
      ['POST', '/media'],
      ['PUT', '/media/01ARZ3NDEKTSV4RRFFQ69G5FAV/replace'],
    ]) {
      for (const how of WAYS) {
        const res = await sendEmpty(cms, method, path, how, multipart);
        expect([path, how, res.status, res.body.error?.code]).toEqual([path, how, 400, 'NO_FILE']);
      }
    }
    const noFile = new FormData();
    noFile.append('alt', 'text only');
    const emptyFile = new FormData();
    emptyFile.append('file', new Blob([], { type: 'image/png' }), 'empty.png');
    for (const form of [noFile, emptyFile]) {
      const res = await cms.app.request('/_cms/api/media', {
        method: 'POST',
        headers: { authorization: `Bearer ${cms.adminToken}` },
        body: form,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.code).toBe('NO_FILE');
    }
    expect(await cms.storedKeys()).toEqual([]);
    expect(stagedLeftovers(cms)).toEqual([]);
  });

  it('the WordPress export upload: NO_FILE for an empty body or no file part', async () => {
    const cms = await mediaCms(dialect);
    const multipart = { 'content-type': 'multipart/form-data; boundary=xyz' };
    for (const path of ['/import/blogplatform/analyze', '/import/blogplatform/execute']) {
      for (const how of WAYS) {
        const res = await sendEmpty(cms, 'POST', path, how, multipart);
        expect([path, how, res.status, res.body.error?.code]).toEqual([path, how, 400, 'NO_FILE']);
      }
    }
  });
});

import { request } from 'node:http';
import { expect, it } from 'vitest';
import { listen } from '../../../src/http/server.js';
import { describeEachDialect } from '../../helpers/db.js';
import { type MediaCms, mediaCms, png, stagedLeftovers, uploaded } from '../../helpers/media.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Start an upload and cut the connection half way through the file, once the service is storing
 * the body (a new staged file).
 */
async function abortedUpload(cms: MediaCms, url: string, path: string, contentType: string): Promise<void> {
  const before = new Set(stagedLeftovers(cms));
  const req = request(`${url}${path}`, {
    method: path === '/_cms/api/media' ? 'POST' : 'PUT',
    headers: {
      authorization: `Bearer ${cms.adminToken}`,
      'content-type': contentType,
      'content-length': String(1024 * 1024),
    },
  });
  let answered: string | null = null;
  req.on('error', (err) => {
    answered = err.message;
  });
  req.on('response', (res) => {
    answered = `status ${res.statusCode}`;
    res.resume();
  });
  req.write(
    contentType.startsWith('multipart')
      ? '--b\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'
      : '',
  );
  req.write(Buffer.alloc(64 * 1024, 1));
  await waitFor(() => answered !== null || stagedLeftovers(cms).some((f) => !before.has(f)), {
    what: `the service to start storing the upload to ${path}`,
  });
  // An answer before the body is complete would mean the cut tests nothing.
  expect(answered, `${path} answered before the body was complete`).toBeNull();
  req.destroy();
}

describeEachDialect('Uploads cut off by the client', (dialect) => {
  it('leave the service running and nothing behind', async () => {
    const cms = await mediaCms(dialect);
    const running = await listen(cms, 0, '127.0.0.1');
    try {
      const actor = await cms.services.tokens.authenticate(cms.adminToken);
      if (!actor) throw new Error('no actor');
      const pending = await cms.services.media.requestUpload(actor, {
        filename: 'a.bin',
        contentType: 'video/mp4',
        size: 1024 * 1024,
      });
      const ready = await uploaded(cms, await png(8, 8));
      for (let i = 0; i < 3; i++) {
        await abortedUpload(cms, running.url, '/_cms/api/media', 'multipart/form-data; boundary=b');
        await abortedUpload(cms, running.url, `/_cms/api/media/${ready.id}/replace`, 'multipart/form-data; boundary=b');
        await abortedUpload(cms, running.url, `/_cms/api/media/${pending.mediaId}/upload`, 'application/octet-stream');
      }
      // The service notices each cut connection and drops what it had staged or stored of it.
      await waitFor(
        async () => stagedLeftovers(cms).length === 0 && (await cms.storedKeys()).join() === ready.storageKey,
        { what: 'the cut-off uploads to leave nothing behind' },
      );
      const res = await fetch(`${running.url}/_cms/api/media`, {
        headers: { authorization: `Bearer ${cms.adminToken}` },
      });
      expect(res.status).toBe(200);
      expect(stagedLeftovers(cms)).toEqual([]);
      expect(await cms.storedKeys()).toEqual([ready.storageKey]);
    } finally {
      await new Promise<void>((done) => running.server.close(() => done()));
    }
  });
});

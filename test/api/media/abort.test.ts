import { request } from 'node:http';
import { expect, it } from 'vitest';
import { listen } from '../../../src/http/server.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms, png, stagedLeftovers, uploaded } from '../../helpers/media.js';

/** Start a multipart upload and cut the connection half way through the file. */
function abortedUpload(url: string, token: string, path: string, contentType: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, {
      method: path.endsWith('/upload') ? 'PUT' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': String(1024 * 1024) },
    });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    req.write(
      contentType.startsWith('multipart')
        ? '--b\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'
        : '',
    );
    req.write(Buffer.alloc(64 * 1024, 1));
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 100);
  });
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
        await abortedUpload(running.url, cms.adminToken, '/_cms/api/media', 'multipart/form-data; boundary=b');
        await abortedUpload(
          running.url,
          cms.adminToken,
          `/_cms/api/media/${ready.id}/replace`,
          'multipart/form-data; boundary=b',
        );
        await abortedUpload(
          running.url,
          cms.adminToken,
          `/_cms/api/media/${pending.mediaId}/upload`,
          'application/octet-stream',
        );
      }
      await new Promise((r) => setTimeout(r, 300));
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

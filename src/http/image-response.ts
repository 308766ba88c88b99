import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { Services } from '../services/index.js';
import type { AppEnv } from './env.js';
import { etagMatches, FILE_SAFETY, fileResponse } from './file-response.js';

/**
 * `GET|HEAD /media/{id}/image?…`: a responsive image (docs/media.md, "Responsive images").
 * The parameters are checked before anything is read; a non-canonical spelling of them is sent
 * on to the canonical URL (301, so caches hold one copy per output). `If-None-Match` is
 * answered from the parameters and the item alone, before storage is touched; a derivative is
 * then streamed from the file system, or the client sent to the object (S3) like the file route.
 */
export async function imageResponse(c: Context<AppEnv>, services: Services, id: string): Promise<Response> {
  const url = new URL(c.req.url);
  const accept = c.req.header('accept');
  const answer = await services.media.images.resolve(id, url.search.slice(1), accept);
  if (answer.kind === 'redirect') {
    const location = `${url.pathname}${answer.query ? `?${answer.query}` : ''}`;
    return new Response(null, {
      status: 301,
      headers: { Location: location, 'Cache-Control': 'public, max-age=86400' },
    });
  }
  if (answer.kind === 'original') return fileResponse(c, services, answer.ref);

  const d = answer.derivative;
  const headers: Record<string, string> = {
    ...FILE_SAFETY,
    ETag: d.etag,
    'Cache-Control': d.cacheControl,
    'Content-Type': d.headers.contentType,
    'Content-Disposition': d.headers.contentDisposition ?? 'inline',
  };
  if (d.vary) headers.Vary = 'Accept';
  if (etagMatches(c.req.header('if-none-match'), d.etag)) return new Response(null, { status: 304, headers });

  const delivery = await services.media.images.deliver(d);
  if (delivery.kind === 'redirect') {
    const redirect: Record<string, string> = {
      ...FILE_SAFETY,
      Location: delivery.location,
      'Cache-Control': delivery.cacheControl,
    };
    if (d.vary) redirect.Vary = 'Accept';
    return new Response(null, { status: 302, headers: redirect });
  }
  headers['Content-Length'] = String(delivery.read.size);
  if (c.req.method === 'HEAD') {
    delivery.read.body.destroy();
    return new Response(null, { status: 200, headers });
  }
  return new Response(Readable.toWeb(delivery.read.body) as unknown as ReadableStream, { status: 200, headers });
}

import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { Services } from '../services/index.js';
import type { ServedFile } from '../services/media/index.js';
import type { AppEnv } from './env.js';

/**
 * Media bytes over HTTP: ETag revalidation, single byte ranges, and headers
 * that keep uploaded files inert on the site's origin (nosniff, a sandboxing
 * CSP, SVG and HTML only as downloads). Object storage answers with a
 * redirect to a public or presigned URL instead.
 */
export const FILE_SAFETY = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Access-Control-Allow-Origin': '*',
  'Referrer-Policy': 'no-referrer',
};

interface Range {
  start: number;
  end: number;
}

/** One `bytes=` range (RFC 9110); several ranges or a malformed header are ignored (full response). */
export function parseRange(header: string | undefined, size: number): Range | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** `If-None-Match` names this entity tag (or `*`); weak forms compare equal. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export async function fileResponse(c: Context<AppEnv>, services: Services, ref: string): Promise<Response> {
  const file: ServedFile = await services.media.files.resolve(ref);
  const redirect = await services.media.files.redirect(file);
  if (redirect) {
    return new Response(null, {
      status: 302,
      headers: { Location: redirect.location, 'Cache-Control': redirect.cacheControl, ...FILE_SAFETY },
    });
  }
  const headers: Record<string, string> = {
    ...FILE_SAFETY,
    ETag: file.etag,
    'Cache-Control': file.headers.cacheControl ?? 'public, no-cache',
    'Content-Type': file.headers.contentType,
    'Content-Disposition': file.headers.contentDisposition ?? 'attachment',
    'Accept-Ranges': 'bytes',
  };
  if (etagMatches(c.req.header('if-none-match'), file.etag)) return new Response(null, { status: 304, headers });

  const ifRange = c.req.header('if-range');
  const range = ifRange && ifRange !== file.etag ? null : parseRange(c.req.header('range'), file.size);
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${file.size}` } });
  }
  const status = range ? 206 : 200;
  const length = range ? range.end - range.start + 1 : file.size;
  headers['Content-Length'] = String(length);
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`;
  if (c.req.method === 'HEAD') return new Response(null, { status, headers });
  const read = await services.media.files.read(file, range ?? undefined);
  if (!read) return c.json({ success: false, error: { code: 'NOT_FOUND', message: 'File not found' } }, 404);
  return new Response(Readable.toWeb(read.body) as unknown as ReadableStream, { status, headers });
}

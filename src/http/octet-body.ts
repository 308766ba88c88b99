import type { Readable } from 'node:stream';
import type { Context } from 'hono';
import { CmsError } from '../core/errors.js';
import type { AppEnv } from './env.js';
import { bodyWithBytes } from './request-body.js';

/**
 * The raw bytes of an `application/octet-stream` upload, as a Node stream
 * the service reads (and counts) itself, and the declared length when the
 * client sent a well-formed one. `body` is null when the request carries no
 * bytes (see request-body.ts): the service decides what an empty upload means
 * before it compares lengths. A body declared as another media type is refused with 415 before
 * anything reads it (a JSON body is already parsed by the storable-text check at the door, so its
 * stream is gone; and such a body is never the file the route documents).
 */
export async function octetBody(c: Context<AppEnv>): Promise<{ body: Readable | null; length: number | null }> {
  const type = c.req.header('content-type');
  if (type !== undefined && !/^\s*application\/octet-stream\s*(;|$)/i.test(type)) {
    throw new CmsError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as application/octet-stream', {
      contentType: type.slice(0, 100),
    });
  }
  const raw = c.req.header('content-length');
  const length = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
  return { body: await bodyWithBytes(c.req.raw), length };
}

import type { Readable } from 'node:stream';
import type { Context } from 'hono';
import { CmsError } from '../core/errors.js';
import type { AppEnv } from './env.js';
import { JSON_TYPE } from './middleware/body.js';
import { bodyWithBytes } from './request-body.js';

/**
 * The raw bytes of an `application/octet-stream` upload, as a Node stream
 * the service reads (and counts) itself, and the declared length when the
 * client sent a well-formed one. `body` is null when the request carries no
 * bytes (see request-body.ts): the service decides what an empty upload means
 * before it compares lengths. A body declared as JSON is refused with 415: the storable-text check
 * at the door (middleware/body.ts, JSON_TYPE) has already parsed it, so its stream is gone, and a
 * JSON document is never the file these routes take. Any other type is the file's bytes (clients
 * send `application/octet-stream` or the file's own type, as the WordPress media copy does).
 */
export async function octetBody(c: Context<AppEnv>): Promise<{ body: Readable | null; length: number | null }> {
  const type = c.req.header('content-type');
  if (type !== undefined && JSON_TYPE.test(type)) {
    throw new CmsError('UNSUPPORTED_MEDIA_TYPE', 'Send the file itself as application/octet-stream, not JSON', {
      contentType: type.slice(0, 100),
    });
  }
  const raw = c.req.header('content-length');
  const length = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
  return { body: await bodyWithBytes(c.req.raw), length };
}

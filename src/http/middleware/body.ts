import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { CmsConfig } from '../../core/config.js';
import { CmsError, issuesError } from '../../core/errors.js';
import { assertStorable } from '../../core/text.js';
import type { AppEnv } from '../env.js';

/**
 * Request bodies: a limit chosen by who is calling and what is sent, checked
 * on the declared length before a byte is read. An unauthenticated caller
 * only ever needs a small body (sign-in, public comments), so a larger one is
 * refused as unauthorised instead of being read first; uploads get the upload
 * limit, everything else the JSON limit.
 */
export const ANONYMOUS_BODY_LIMIT = 64 * 1024;

const UPLOAD_TYPE = /^\s*(multipart\/form-data|application\/octet-stream)\b/i;
export const JSON_TYPE = /^\s*application\/([a-z0-9.+-]*\+)?json\b/i;

const hasNoBody = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

function refuse(anonymous: boolean, max: number): CmsError {
  if (anonymous) return new CmsError('UNAUTHORIZED', 'Sign in to send a request body of this size');
  return new CmsError('PAYLOAD_TOO_LARGE', `Request body larger than ${max} bytes`, { maxBytes: max });
}

export function bodyLimits(config: CmsConfig): MiddlewareHandler<AppEnv> {
  const limiters = new Map<string, MiddlewareHandler>();
  const limiterFor = (max: number, anonymous: boolean) => {
    const key = `${max}:${anonymous}`;
    let limiter = limiters.get(key);
    if (!limiter) {
      limiter = bodyLimit({
        maxSize: max,
        onError: () => {
          throw refuse(anonymous, max);
        },
      });
      limiters.set(key, limiter);
    }
    return limiter;
  };
  return async (c, next) => {
    // Reads carry no body; skipping the limiter keeps them from materialising the full Request.
    if (hasNoBody(c.req.method)) return next();
    const anonymous = c.get('actor').kind === 'anonymous';
    const type = c.req.header('content-type') ?? '';
    const max = anonymous ? ANONYMOUS_BODY_LIMIT : UPLOAD_TYPE.test(type) ? config.maxUploadSize : config.jsonBodyLimit;
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > max) throw refuse(anonymous, max);
    return limiterFor(max, anonymous)(c, next);
  };
}

/**
 * Text that PostgreSQL cannot store (NUL, unpaired surrogates) is refused at
 * the door, in the URL and anywhere in a JSON body, so both engines answer the
 * same 400 naming the field. The parsed body is cached by Hono, so the route's
 * validator does not parse it again.
 */
export function storableInput(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (/%00/i.test(c.req.url)) {
      throw issuesError('Invalid request: the URL contains a NUL character (%00)', [
        { path: ['url'], code: 'invalid_text', message: 'must not contain NUL characters' },
      ]);
    }
    if (!hasNoBody(c.req.method) && JSON_TYPE.test(c.req.header('content-type') ?? '')) {
      const body = await c.req.json().catch(() => undefined);
      if (body !== undefined) assertStorable(body, 'request body');
    }
    return next();
  };
}

import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { CmsError, type ErrorCode, knownFailure } from '../../core/errors.js';
import type { AppEnv } from '../env.js';

const HTTP_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

const PAUSED: ReadonlySet<ErrorCode> = new Set([
  'TRANSFER_IMPORT_IN_PROGRESS',
  'MEDIA_USAGE_ACTIVATION_IN_PROGRESS',
  'IMAGE_TRANSFORM_BUSY',
]);

/** Refusals that tell the client when to come back (`details.retryAfter`, seconds). */
const RETRY_AFTER: ReadonlySet<ErrorCode> = new Set([
  'RATE_LIMITED',
  'IMAGE_TRANSFORM_BUSY',
  'DATABASE_UNAVAILABLE',
  'STORAGE_UNAVAILABLE',
]);

export function errorBody(err: CmsError) {
  return {
    success: false as const,
    error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
  };
}

/** Translate anything thrown into the error envelope; unknown failures never leak their message. */
export function toCmsError(err: unknown): CmsError | null {
  const known = knownFailure(err);
  if (known) return known;
  if (err instanceof HTTPException) {
    const code = HTTP_CODES[err.status] ?? 'INTERNAL_ERROR';
    if (code === 'INTERNAL_ERROR') return null;
    const message =
      err.status === 400 && /json/i.test(err.message) ? 'Malformed JSON in request body' : err.message || code;
    return new CmsError(code, message, undefined, err.status);
  }
  return null;
}

export function onError(err: Error, c: Context<AppEnv>) {
  const known = toCmsError(err);
  const log = c.get('log');
  if (known) {
    // Writes paused on purpose (activation, import) and busy transforms are expected answers, not failures.
    if (known.status >= 500 && !PAUSED.has(known.code)) log?.error({ err, code: known.code }, 'request failed');
    // Headers go in with the response: @hono/node-server's lightweight Response drops headers set on
    // `res.headers` afterwards when Hono re-wraps it (outer middleware), so Retry-After would be lost.
    const retryAfter =
      RETRY_AFTER.has(known.code) && typeof known.details?.retryAfter === 'number'
        ? { 'Retry-After': String(known.details.retryAfter) }
        : undefined;
    return c.json(errorBody(known), known.status as ContentfulStatusCode, retryAfter);
  }
  log?.error({ err }, 'unhandled error');
  return c.json(errorBody(new CmsError('INTERNAL_ERROR', 'Internal server error')), 500);
}

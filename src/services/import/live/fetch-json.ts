import { CmsError } from '../../../core/errors.js';
import type { ServiceContext } from '../../context.js';
import { FetchRefused, safeFetchBytes } from '../media-copy/safe-fetch.js';

/** Largest JSON answer read from a source site (one page of the exporter API). */
const MAX_JSON_BYTES = 32 * 1024 * 1024;

/**
 * GET a JSON document from a source site through the import's SSRF-safe
 * fetch (public addresses only unless CMS_IMPORT_ALLOW_PRIVATE_HOSTS=1).
 * Failures are VALIDATION_ERROR with a stable `reason` in details.
 */
export async function fetchJson(
  ctx: ServiceContext,
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<unknown> {
  let bytes: Buffer;
  try {
    const res = await safeFetchBytes(url, {
      allowPrivate: ctx.config.importAllowPrivateHosts,
      maxBytes: MAX_JSON_BYTES,
      timeoutMs,
      headers: { accept: 'application/json', ...headers },
    });
    bytes = res.bytes;
  } catch (err) {
    if (err instanceof FetchRefused) {
      const reason = err.sourceStatus === 401 || err.sourceStatus === 403 ? 'UNAUTHORIZED' : err.reason;
      throw new CmsError('VALIDATION_ERROR', `${url}: ${err.message}`, {
        reason,
        issues: [{ path: ['url'], code: 'fetch_failed', message: err.message }],
      });
    }
    throw err;
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new CmsError('VALIDATION_ERROR', `${url} did not answer with JSON`, {
      reason: 'NOT_JSON',
      issues: [{ path: ['url'], code: 'not_json', message: 'the answer is not JSON' }],
    });
  }
}

/** The site's root URL, normalised (http(s), no query or fragment, no trailing slash). */
export function siteRoot(raw: string): string {
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim()) ? raw.trim() : `https://${raw.trim()}`);
  } catch {
    throw new CmsError('VALIDATION_ERROR', 'Not a valid site address', {
      issues: [{ path: ['url'], code: 'invalid_url', message: 'not a valid URL' }],
    });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new CmsError('VALIDATION_ERROR', 'Only http and https sites can be imported', {
      issues: [{ path: ['url'], code: 'invalid_url', message: 'http or https only' }],
    });
  }
  u.search = '';
  u.hash = '';
  return u.toString().replace(/\/+$/, '');
}

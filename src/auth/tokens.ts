import { randomToken, sha256Hex } from '../core/ids.js';

/** Personal access tokens look like `cms_pat_<43 url-safe chars>`. */
export const PAT_PREFIX = 'cms_pat_';

export function generatePat(): { token: string; hash: string; prefix: string } {
  const token = PAT_PREFIX + randomToken(32);
  return { token, hash: sha256Hex(token), prefix: token.slice(0, PAT_PREFIX.length + 6) };
}

export function hashToken(token: string): string {
  return sha256Hex(token);
}

/** Bearer value from an Authorization header, or null. */
export function bearerFrom(header: string | undefined | null): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

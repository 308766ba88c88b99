import { randomToken, sha256Hex } from '../../core/ids.js';

/** A single-use secret: 32 random bytes shown once (in a link or a cookie), stored as SHA-256 hex. */
export function newSecret(): { token: string; hash: string } {
  const token = randomToken(32);
  return { token, hash: sha256Hex(token) };
}

export function hashSecret(token: string): string {
  return sha256Hex(token);
}

/** A link to a page of the admin app, e.g. `{publicUrl}/_cms/admin/invite?token=…`. */
export function adminLink(publicUrl: string, page: string, token: string): string {
  return `${publicUrl}/_cms/admin/${page}?token=${encodeURIComponent(token)}`;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export function isoAfter(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString();
}

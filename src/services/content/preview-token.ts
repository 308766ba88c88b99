import { createHmac, timingSafeEqual } from 'node:crypto';
import { CmsError } from '../../core/errors.js';
import { randomToken } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';

/**
 * Preview tokens: `pv1.<claims>.<signature>`, both parts base64url, the
 * signature an HMAC-SHA-256 of `pv1.<claims>` with the site's preview secret.
 * A token names one entry (collection and ID), the user who asked for it and
 * its expiry; it is not stored anywhere, so the only way to revoke tokens
 * before they expire is to rotate the secret (every outstanding one stops
 * verifying at once, in every process, since the secret is read from the
 * database each time).
 */
const VERSION = 'pv1';
/** Real tokens are about 200 characters; anything far longer is refused before hashing. */
const MAX_TOKEN = 2048;

/** `_cms_meta` key of the secret: not a site setting, so it is never shown, exported or transferred. */
export const PREVIEW_SECRET_KEY = 'preview_secret';

export interface PreviewClaims {
  /** Collection slug. */
  collection: string;
  /** Database ID of the entry. */
  entryId: string;
  /** The user who asked for the link (the token stops when they may no longer read drafts). */
  userId: string;
  /** Expiry, milliseconds since the epoch. */
  expiresAt: number;
}

/** What a token's claims part holds, with short keys to keep preview URLs short. */
interface Wire {
  c: string;
  e: string;
  u: string;
  x: number;
}

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest();

export function signPreviewToken(secret: string, claims: PreviewClaims): string {
  const wire: Wire = { c: claims.collection, e: claims.entryId, u: claims.userId, x: claims.expiresAt };
  const body = `${VERSION}.${Buffer.from(JSON.stringify(wire)).toString('base64url')}`;
  return `${body}.${sign(secret, body).toString('base64url')}`;
}

/**
 * The claims of a token this secret signed, or null for anything else
 * (malformed, another version, a wrong signature: a forgery or a token of a
 * rotated secret look the same). Expiry is the caller's check.
 */
export function readPreviewToken(secret: string, token: string): PreviewClaims | null {
  if (token.length > MAX_TOKEN) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const body = `${parts[0]}.${parts[1]}`;
  const given = Buffer.from(parts[2], 'base64url');
  const expected = sign(secret, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let wire: unknown;
  try {
    wire = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const w = wire as Partial<Wire> | null;
  if (!w || typeof w.c !== 'string' || typeof w.e !== 'string' || typeof w.u !== 'string') return null;
  if (typeof w.x !== 'number' || !Number.isFinite(w.x)) return null;
  return { collection: w.c, entryId: w.e, userId: w.u, expiresAt: w.x };
}

/** The secret, made on first use; two processes racing to make it both end up with the one stored. */
export async function previewSecret(db: Kdb): Promise<string> {
  const read = () =>
    db.selectFrom('_cms_meta').select('value').where('key', '=', PREVIEW_SECRET_KEY).executeTakeFirst();
  const stored = await read();
  if (stored) return stored.value;
  await db
    .insertInto('_cms_meta')
    .values({ key: PREVIEW_SECRET_KEY, value: randomToken(32) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const made = await read();
  if (!made) throw new CmsError('INTERNAL_ERROR', 'The preview secret could not be stored');
  return made.value;
}

/** A new secret: every token signed with the old one stops verifying. */
export async function rotatePreviewSecret(db: Kdb): Promise<void> {
  const value = randomToken(32);
  await db
    .insertInto('_cms_meta')
    .values({ key: PREVIEW_SECRET_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

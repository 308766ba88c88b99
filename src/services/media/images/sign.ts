import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signatures and versions of image URLs. Plain functions of their inputs (no service, no
 * database), so the URL builder a client library uses computes exactly what the server checks.
 */

/** HMAC-SHA256 of `<item id>?<canonical transform>`, base64url, first 128 bits (22 characters). */
export function imageSignature(key: string, id: string, transform: string): string {
  return createHmac('sha256', key).update(`${id}?${transform}`).digest('base64url').slice(0, 22);
}

export function verifySignature(key: string, id: string, transform: string, sig: string): boolean {
  const expected = Buffer.from(imageSignature(key, id, transform));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface FocalPoint {
  x: number;
  y: number;
}

/** Where a crop centres when the item has no focal point. */
export const CENTRE: FocalPoint = { x: 0.5, y: 0.5 };

/**
 * The `v` of an image URL: which bytes (the storage key changes whenever the file does) and,
 * for crops, which focal point the output was made from. A URL whose `v` is the item's current
 * one is cached for a year; any other answers the current image and is revalidated.
 */
export function versionToken(storageKey: string, focal: FocalPoint | null): string {
  const basis = focal ? `${storageKey}|${focal.x}|${focal.y}` : storageKey;
  return createHash('sha256').update(basis).digest('hex').slice(0, 12);
}

import { createHash, randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();

/** Sortable, globally unique record ID (ULID). */
export function newId(): string {
  return ulid();
}

/** 32 random bytes, URL-safe, for secrets that are shown once. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** How secrets are stored: SHA-256, hex. */
export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

/**
 * Cryptographic randomness drawn from a pooled buffer: the default ULID PRNG
 * asks the OS for one byte per character, which shows up on hot paths.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function pooledRandom(): number {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] / 256;
}

const ulid = monotonicFactory(pooledRandom);

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

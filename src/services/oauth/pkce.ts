import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * PKCE (RFC 7636), S256 only: OAuth 2.1 forbids `plain`, and a request
 * without a challenge is refused.
 */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Why a code_challenge / code_challenge_method pair is refused, or null. */
export function challengeProblem(challenge: string | undefined, method: string | undefined): string | null {
  if (!challenge) return 'code_challenge is required (PKCE with S256)';
  if (method !== 'S256') {
    return method
      ? `code_challenge_method "${method}" is not supported; use S256`
      : 'code_challenge_method must be S256';
  }
  if (!CHALLENGE.test(challenge)) return 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)';
  return null;
}

/** True when SHA-256(verifier), base64url, equals the stored challenge. */
export function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

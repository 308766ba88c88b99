import { randomInt } from 'node:crypto';

/**
 * User codes of the device grant (RFC 8628 §6.1): eight characters from 20
 * consonants (no vowels, so no words; no look-alikes such as 0/O or 1/I),
 * shown as XXXX-XXXX. Input is forgiving: case, spaces and dashes are ignored.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** `bcdf-ghjk` → `BCDFGHJK`; null when it cannot be a user code. */
export function normalizeUserCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== LENGTH) return null;
  for (const ch of code) if (!USER_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

export const displayUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

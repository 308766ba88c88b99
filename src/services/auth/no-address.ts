import { sha256Hex } from '../../core/ids.js';

/**
 * Accounts without an email address. Every user has an address (`_cms_users.email` is NOT NULL
 * UNIQUE), but a DID-based provider (AT Protocol) gives none, so an account its allowlists admit
 * gets a reserved one under `.invalid`, the top-level domain RFC 2606 sets aside so that it never
 * resolves: `did-plc-ewvi7nxzyoun6zhxrhs64oiz@did.invalid` for `did:plc:ewvi7nxzyoun6zhxrhs64oiz`.
 * It is unique per DID, nothing is ever mailed to it (or to any `.invalid` address), and the
 * admin shows it as "no address". An Admin can give the user a real address later.
 */
export const NO_ADDRESS_DOMAIN = 'did.invalid';

/** DIDs written out as they are: did:plc, and did:web of a plain host name (no port, no path). */
const READABLE = /^did:(plc|web):[a-z0-9.-]{1,55}$/;

/** The reserved address of an account made from a DID that gave no address. */
export function noAddressFor(did: string): string {
  // did:plc:abc → did-plc-abc; any other DID (upper case, ports, paths, long) by its SHA-256, so two DIDs never share one.
  const local = READABLE.test(did) ? did.replace(/:/g, '-') : `did-${sha256Hex(did).slice(0, 40)}`;
  return `${local}@${NO_ADDRESS_DOMAIN}`;
}

/** Whether mail can never reach an address (a `.invalid` domain): nothing is sent to it. */
export function isUndeliverable(email: string): boolean {
  const at = email.lastIndexOf('@');
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  return domain === 'invalid' || domain.endsWith('.invalid');
}

/**
 * Accounts made from a DID sign-in (AT Protocol) that gave no email address hold a reserved
 * address under `.invalid` (RFC 2606: never delivered; the service mails nothing there). The
 * admin shows such an account as having no address rather than the reserved one.
 */
export function hasAddress(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return !(domain === 'invalid' || domain.endsWith('.invalid'));
}

/** The address to show for a user: theirs, or "No address". */
export function shownAddress(email: string): string {
  return hasAddress(email) ? email : 'No address';
}

/**
 * What a redirect may carry. The headers an import sends to a source site can hold its
 * credentials (the exporter's `Authorization: Basic` application password, a cookie, a migration
 * key); a redirect is the source's word on where to go next, and a hostile or compromised source
 * can name any server. So credentials stay with the origin they were given for, as browsers and
 * undici decide (Fetch standard, "HTTP-redirect fetch"): a hop to another scheme, host or port
 * drops them, and so does https → http (which also puts them on the wire in clear). Once dropped
 * they stay dropped, even if a later hop comes back.
 */

/** Statuses that name the next URL in `Location` (RFC 9110 §15.4); other 3xx are answers, not hops. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export type RedirectTrust = 'same-origin' | 'cross-origin' | 'downgrade';

/** How the hop from `from` to `to` relates to the origin credentials were sent to. */
export function redirectTrust(from: URL, to: URL): RedirectTrust {
  if (from.protocol === 'https:' && to.protocol === 'http:') return 'downgrade';
  // `origin` is scheme, lower-cased host and port with the scheme's default left out.
  return from.origin === to.origin ? 'same-origin' : 'cross-origin';
}

/**
 * Request headers that reveal nothing about the caller and may follow to any origin; every other
 * header the caller gave (credentials, whatever their name) is left behind.
 */
const PUBLIC_HEADERS = new Set(['accept', 'accept-language']);

/** The caller's headers for the next hop: all of them within the origin, only the public ones beyond it. */
export function headersForHop(headers: Record<string, string>, from: URL, to: URL): Record<string, string> {
  if (redirectTrust(from, to) === 'same-origin') return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => PUBLIC_HEADERS.has(name.toLowerCase())));
}

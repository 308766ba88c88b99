/**
 * Redirect URIs of registered clients (RFC 6749 §3.1.2, RFC 8252, OAuth 2.1).
 *
 * Accepted at registration: `https:` URLs; `http:` only on a loopback host
 * (localhost, 127.0.0.1, [::1]) for native apps; private-use schemes of native
 * apps (`com.example.app:/callback`, RFC 8252 §7.1). Never a fragment, never
 * user info, never a scheme a browser would run or render (javascript:, data: …).
 *
 * Matching is exact string comparison, except that the port of a loopback
 * `http:` redirect may differ (RFC 8252 §7.3: native apps listen on an
 * ephemeral port); scheme, host, path and query must still be identical.
 */
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'filesystem:',
  'ftp:',
  'ws:',
  'wss:',
  'mailto:',
  'tel:',
]);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_LENGTH = 2000;

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  if (typeof uri !== 'string' || !uri || uri.length > MAX_LENGTH) return 'must be a URL of at most 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain user information';
  if (url.protocol === 'https:') return url.hostname ? null : 'needs a host';
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : 'http is allowed only for loopback hosts (localhost, 127.0.0.1, [::1])';
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `the scheme ${url.protocol} is not allowed`;
  // Private-use scheme of a native app.
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? null : 'has an invalid scheme';
}

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** The registered URI a request's redirect_uri matches, or null. */
export function matchRedirectUri(registered: readonly string[], requested: string): string | null {
  if (registered.includes(requested)) return requested;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return null;
  }
  if (!isLoopbackHttp(asked) || requested.includes('#')) return null;
  for (const candidate of registered) {
    const reg = new URL(candidate);
    if (!isLoopbackHttp(reg)) continue;
    // Same URI once the ports are set aside.
    reg.port = '';
    const sameButPort = new URL(requested);
    sameButPort.port = '';
    if (reg.href === sameButPort.href) return requested;
  }
  return null;
}

/** What the consent page shows as where the user is sent back to. */
export function redirectHost(uri: string): string {
  const url = new URL(uri);
  return url.host || `${url.protocol}${url.pathname.split('/')[0] ?? ''}`;
}

/** The redirect URI with query parameters added (existing ones kept, RFC 6749 §3.1.2). */
export function withParams(uri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined) url.searchParams.append(key, value);
  }
  return url.toString();
}

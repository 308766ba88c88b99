/**
 * Paths as redirects compare them: the URL parser's pathname (dot segments
 * resolved, backslashes as slashes, characters percent-encoded), upper-case
 * percent escapes, and no trailing slash except for the root. Query strings
 * and fragments are never part of a source.
 */
export const MAX_PATH = 2048;

export function canonicalPath(pathname: string): string {
  let p = pathname.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
  if (p.length > 1) p = p.replace(/\/+$/, '') || '/';
  return p;
}

/** The canonical path of a request URL, or null when it cannot be one (too long). */
export function requestPath(url: URL): string | null {
  if (url.pathname.length > MAX_PATH) return null;
  return canonicalPath(url.pathname);
}

/** Parse a site-relative path the way a browser would resolve it against the site. */
export function parsePath(raw: string): URL | null {
  try {
    return new URL(raw, 'http://site.invalid');
  } catch {
    return null;
  }
}

/** Every ancestor key of a path, longest first: `/a/b` → `/a/b`, `/a`, `` (the root bucket). */
export function* ancestors(path: string): Generator<string> {
  let p = path === '/' ? '' : path;
  for (;;) {
    yield p;
    if (p === '') return;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

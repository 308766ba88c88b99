/**
 * URL safety for `url` fields, Portable Text links and media `src`/`url` values (spec 2, "url rules").
 *
 * The rule is an allowlist: absolute http(s) URLs, `mailto:`, `tel:`, site-relative paths and
 * `#fragments`. Everything else is rejected, so obfuscations we did not think of (entities,
 * zero-width characters, odd schemes) fall out as "not in the list" rather than needing a
 * blocklist entry each.
 */

export interface CheckUrlOptions {
  /**
   * Seeds and plugin content updates keep scheme-less values such as `about/` or `example.com/x`
   * (spec 2, url rule 3). They are still rejected when a browser would resolve them to another
   * site or when they carry a scheme outside the allowlist.
   */
  allowSchemeless?: boolean;
}

/** Resolution base for relative values: a same-origin result proves the value stays on the site. */
const BASE_ORIGIN = 'https://site.invalid';
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const HTTP_PREFIX = /^https?:\/\//i;
const ALLOWED_FORMS =
  'an absolute http(s) URL, a mailto: or tel: link, a site-relative path starting with / or a #fragment';

/**
 * C0 controls, DEL and C1 controls: browsers silently strip tabs and newlines from URLs
 * (`java\tscript:` runs as `javascript:`), and the rest have no business in a link.
 * Bidirectional overrides are rejected as well because they make a link display as another.
 */
function hasForbiddenChar(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
    if (c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
  }
  return false;
}

/** Returns null when `value` is a safe link target, otherwise a message saying why it is not. */
export function checkUrl(value: string, options: CheckUrlOptions = {}): string | null {
  if (value.length === 0) return 'URL is empty';
  if (hasForbiddenChar(value)) return 'URL contains control or invisible formatting characters';
  if (value.trim() !== value) return 'URL has leading or trailing whitespace';
  if (value.startsWith('#')) return null;
  if (value.startsWith('/') || value.startsWith('\\')) return checkSitePath(value);

  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    return options.allowSchemeless ? checkSchemeless(value) : `URL must be ${ALLOWED_FORMS}`;
  }
  switch (scheme) {
    case 'http':
    case 'https':
      return checkHttp(value);
    case 'mailto':
    case 'tel':
      return value.length > scheme.length + 1 ? null : `${scheme}: link has no address`;
    default:
      return `URL scheme "${scheme}:" is not allowed; use ${ALLOWED_FORMS}`;
  }
}

function staysOnSite(value: string): boolean {
  try {
    return new URL(value, `${BASE_ORIGIN}/dir/`).origin === BASE_ORIGIN;
  } catch {
    return false;
  }
}

function checkSitePath(value: string): string | null {
  // Browsers treat "\" like "/" in http(s) URLs, so "/\evil.com" and "\\evil.com" mean "//evil.com".
  if (value[0] === '\\' || value[1] === '\\') return 'URL starts with a backslash, which browsers read as another site';
  if (value[1] === '/') return 'protocol-relative URLs (//host) are not allowed; use https://host';
  return staysOnSite(value) ? null : 'URL resolves to another site';
}

function checkSchemeless(value: string): string | null {
  return staysOnSite(value) ? null : 'URL resolves to another site';
}

function checkHttp(value: string): string | null {
  // "https:example.com" or "https:\\example.com" parse differently across URL parsers; require the plain form.
  if (!HTTP_PREFIX.test(value)) return 'http(s) URLs must start with http:// or https://';
  // A backslash in the authority ("https://good.com\@evil.com") splits hosts differently per parser.
  if (value.includes('\\')) return 'backslashes are not allowed in URLs';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'URL is not a valid absolute URL';
  }
  if (url.hostname === '') return 'URL has no host';
  // "https://good.com@evil.com" shows one site and opens another.
  if (url.username !== '' || url.password !== '') return 'URLs with embedded credentials are not allowed';
  return null;
}

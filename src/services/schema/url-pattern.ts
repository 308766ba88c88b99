import type { I18nConfig } from '../../core/config.js';
import type { ValidationIssue } from '../../core/errors.js';

/**
 * A collection's URL pattern makes its entries routable (sitemaps, hreflang):
 * `/blog/{slug}` for every locale, or one pattern per locale
 * (`{ "en": "/blog/{slug}", "fr": "/fr/blogue/{slug}" }`).
 *
 * A single pattern follows i18n rule 1: the default locale is unprefixed,
 * other locales get `/{locale}` in front. A per-locale pattern is used as
 * written; a locale without one falls back to the default locale's pattern
 * with the `/{locale}` prefix. `{locale}` may also appear inside a pattern.
 */
export type UrlPattern = string | Record<string, string>;

export const MAX_URL_PATTERN = 200;

/** Path characters a pattern may hold besides its placeholders (no query, fragment, spaces or backslashes). */
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;

/** Problems with one pattern string, or none. */
function patternIssues(pattern: string, path: (string | number)[]): ValidationIssue[] {
  const issue = (message: string): ValidationIssue[] => [{ path, code: 'invalid_url_pattern', message }];
  if (pattern.length > MAX_URL_PATTERN) return issue(`must be at most ${MAX_URL_PATTERN} characters`);
  if (!pattern.startsWith('/') || pattern.startsWith('//')) return issue('must start with a single "/"');
  const slugs = pattern.split('{slug}').length - 1;
  if (slugs !== 1) return issue('must contain "{slug}" exactly once');
  const rest = pattern.replaceAll('{slug}', '').replaceAll('{locale}', '');
  if (/[{}]/.test(rest)) return issue('only the placeholders {slug} and {locale} are allowed');
  if (!PATH_CHARS.test(rest)) return issue('may hold only URL path characters (no spaces, "?", "#" or "\\")');
  if (/(^|\/)\.\.?(\/|$)/.test(rest)) return issue('may not contain "." or ".." segments');
  return [];
}

/**
 * Validate a pattern against the configured locales; issues are reported
 * under `path`. With `i18n` null only the patterns' form is checked (a stored
 * pattern from elsewhere: a locale this site does not configure is never
 * looked up, so its pattern is kept unused).
 */
export function urlPatternIssues(
  value: UrlPattern | null,
  i18n: I18nConfig | null,
  path: (string | number)[] = ['urlPattern'],
): ValidationIssue[] {
  if (value === null) return [];
  if (typeof value === 'string') return patternIssues(value, path);
  const issues: ValidationIssue[] = [];
  const keys = Object.keys(value);
  if (!keys.length) issues.push({ path, code: 'invalid_url_pattern', message: 'must name at least one locale' });
  for (const key of keys) {
    if (typeof value[key] !== 'string') {
      issues.push({ path: [...path, key], code: 'invalid_url_pattern', message: 'must be a pattern string' });
      continue;
    }
    if (i18n && !i18n.locales.includes(key)) {
      issues.push({ path: [...path, key], code: 'unknown_locale', message: `"${key}" is not a configured locale` });
      continue;
    }
    issues.push(...patternIssues(value[key], [...path, key]));
  }
  return issues;
}

/** The pattern that applies to a locale, with its prefix applied (see the module comment). */
function patternFor(pattern: UrlPattern, locale: string, i18n: I18nConfig): string | null {
  const prefixed = (p: string) => (i18n.enabled && locale !== i18n.defaultLocale ? `/${locale}${p}` : p);
  if (typeof pattern === 'string') return prefixed(pattern);
  if (pattern[locale] !== undefined) return pattern[locale];
  const base = pattern[i18n.defaultLocale];
  return base === undefined ? null : prefixed(base);
}

/**
 * The site-relative path of an entry, or null when the collection has no
 * pattern for the locale. The slug is percent-encoded (it fills one segment).
 */
export function entryPath(pattern: UrlPattern | null, locale: string, slug: string, i18n: I18nConfig): string | null {
  if (pattern === null) return null;
  const p = patternFor(pattern, locale, i18n);
  if (p === null) return null;
  return p.replaceAll('{locale}', encodeURIComponent(locale)).replace('{slug}', encodeURIComponent(slug));
}

/** Stored form: the string itself, or JSON for a per-locale object. */
export function encodeUrlPattern(value: UrlPattern | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function decodeUrlPattern(stored: string | null): UrlPattern | null {
  if (stored === null || stored === '') return null;
  if (!stored.startsWith('{')) return stored;
  try {
    return JSON.parse(stored) as Record<string, string>;
  } catch {
    return null;
  }
}

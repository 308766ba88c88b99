import type { CmsConfig } from '../core/config.js';
import { issuesError } from '../core/errors.js';

/**
 * Locale rules shared by the per-locale structure records (taxonomy
 * definitions, terms, menus): a configured locale or the default one, and
 * the fallback chain readers follow.
 */
export function resolveLocale(
  config: CmsConfig,
  locale: string | undefined,
  path: (string | number)[] = ['locale'],
): string {
  const { i18n } = config;
  if (locale === undefined || locale === '') return i18n.defaultLocale;
  if (!i18n.locales.includes(locale)) {
    throw issuesError(`Locale "${locale}" is not configured`, [
      { path, code: 'unknown_locale', message: `must be one of ${i18n.locales.join(', ')}` },
    ]);
  }
  return locale;
}

/** Requested locale, then its configured fallback, then the default locale (each once). */
export function localeChain(config: CmsConfig, locale: string): string[] {
  const { i18n } = config;
  const chain = [locale];
  const fb = i18n.fallback[locale];
  if (fb && !chain.includes(fb)) chain.push(fb);
  if (!chain.includes(i18n.defaultLocale)) chain.push(i18n.defaultLocale);
  return chain;
}

/** Pick, per key, the row whose locale comes first in the chain. */
export function pickByChain<T extends { locale: string }>(
  rows: T[],
  chain: string[],
  key: (row: T) => string,
): Map<string, T> {
  const best = new Map<string, T>();
  for (const row of rows) {
    const rank = chain.indexOf(row.locale);
    if (rank < 0) continue;
    const k = key(row);
    const current = best.get(k);
    if (!current || chain.indexOf(current.locale) > rank) best.set(k, row);
  }
  return best;
}

/**
 * The form of a locale code on a stored record (entries, terms, menus,
 * bylines …) read from elsewhere. Whether this site configures the locale is
 * not asked: rows of other locales stay stored and readers skip them, as they
 * skip rows of a locale removed from the configuration.
 */
export function isLocaleCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9-]{1,35}$/.test(value);
}

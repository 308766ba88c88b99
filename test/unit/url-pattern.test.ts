import { describe, expect, it } from 'vitest';
import type { I18nConfig } from '../../src/core/config.js';
import { entryPath, urlPatternIssues } from '../../src/services/schema/url-pattern.js';

const i18n: I18nConfig = { locales: ['en', 'fr', 'de'], defaultLocale: 'en', fallback: {}, enabled: true };
const single: I18nConfig = { locales: ['en'], defaultLocale: 'en', fallback: {}, enabled: false };

describe('URL patterns', () => {
  it('prefixes non-default locales of a single pattern (i18n rule 1)', () => {
    expect(entryPath('/blog/{slug}', 'en', 'hello', i18n)).toBe('/blog/hello');
    expect(entryPath('/blog/{slug}', 'fr', 'bonjour', i18n)).toBe('/fr/blog/bonjour');
    expect(entryPath('/blog/{slug}', 'en', 'a b/c', single)).toBe('/blog/a%20b%2Fc');
    expect(entryPath('/{locale}/x/{slug}', 'de', 's', i18n)).toBe('/de/de/x/s');
    expect(entryPath(null, 'en', 's', i18n)).toBeNull();
  });

  it('uses per-locale patterns as written, else the default one prefixed', () => {
    const p = { en: '/blog/{slug}', fr: '/blogue/{slug}' };
    expect(entryPath(p, 'fr', 's', i18n)).toBe('/blogue/s');
    expect(entryPath(p, 'de', 's', i18n)).toBe('/de/blog/s');
    expect(entryPath({ fr: '/blogue/{slug}' }, 'de', 's', i18n)).toBeNull();
  });

  it('refuses malformed patterns and unknown locales', () => {
    expect(urlPatternIssues('/blog/{slug}', i18n)).toEqual([]);
    for (const bad of [
      'blog/{slug}',
      '//{slug}',
      '/x',
      '/{slug}/{slug}',
      '/{id}/{slug}',
      '/a b/{slug}',
      '/./{slug}',
      '/{slug}#x',
    ]) {
      expect(urlPatternIssues(bad, i18n), bad).toHaveLength(1);
    }
    expect(urlPatternIssues({ es: '/{slug}' }, i18n)[0]).toMatchObject({
      path: ['urlPattern', 'es'],
      code: 'unknown_locale',
    });
    expect(urlPatternIssues({}, i18n)).toHaveLength(1);
  });
});

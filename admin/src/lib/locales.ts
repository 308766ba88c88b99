import { useQuery } from '@tanstack/react-query';
import { meQuery } from './session';

/** The configured locales and the default one, from the signed-in session. */
export function useLocales(): { locales: string[]; defaultLocale: string; multilingual: boolean } {
  const me = useQuery(meQuery).data;
  const locales = me?.i18n.locales ?? ['en'];
  return { locales, defaultLocale: me?.i18n.defaultLocale ?? locales[0], multilingual: locales.length > 1 };
}

/** A locale code as people read it ("fr" → "French (fr)"), falling back to the code. */
export function localeName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

import { sql } from 'kysely';
import type { TaxonomyDeps } from './deps.js';

/**
 * Spec i18n rule 6: taxonomy definitions, terms and menus stored in a locale
 * the configuration no longer lists are left as they are (not shown, not
 * changed) and reported once per process in the server log, when the
 * taxonomy list (the admin's manifest of taxonomies) is first read.
 */
export function strayLocaleReport(deps: TaxonomyDeps) {
  let reported = false;
  return async (): Promise<void> => {
    if (reported) return;
    reported = true;
    const { db, config, log } = deps.ctx;
    const locales = config.i18n.locales;
    const tally = async (table: '_cms_taxonomy_defs' | '_cms_terms' | '_cms_menus') =>
      Object.fromEntries(
        (
          await db
            .selectFrom(table)
            .select(['locale', sql<number | string>`count(*)`.as('n')])
            .where('locale', 'not in', locales)
            .groupBy('locale')
            .execute()
        ).map((r) => [r.locale, Number(r.n)]),
      );
    const found = {
      taxonomyDefinitions: await tally('_cms_taxonomy_defs'),
      terms: await tally('_cms_terms'),
      menus: await tally('_cms_menus'),
    };
    if (Object.values(found).some((t) => Object.keys(t).length > 0)) {
      log.warn(
        { ...found, configuredLocales: locales },
        'structure records use locales outside the configuration; they are kept unchanged and not shown',
      );
    }
  };
}

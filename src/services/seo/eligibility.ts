import { type ExpressionBuilder, sql } from 'kysely';
import type { I18nConfig } from '../../core/config.js';
import type { Kdb } from '../../db/connect.js';
import type { CollectionInfo } from '../schema/model.js';
import { entryPath } from '../schema/url-pattern.js';

/**
 * Which entries have a public, indexable URL (i18n rules 7 and 8): the
 * collection is routable (a URL pattern) and SEO-enabled; the entry is
 * published, not trashed, has a slug, is in a configured locale that the
 * pattern covers, and is not marked noindex.
 */
export function isIndexable(c: CollectionInfo): boolean {
  return c.urlPattern !== null && c.supports.includes('seo');
}

/** Configured locales the collection's pattern gives a URL, in configuration order. */
export function routableLocales(c: CollectionInfo, i18n: I18nConfig): string[] {
  return i18n.locales.filter((l) => entryPath(c.urlPattern, l, 'x', i18n) !== null);
}

// biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
type Eb = ExpressionBuilder<any, any>;

/** The WHERE of an indexable entry of `c` (table alias `t`). */
export function indexableWhere(c: CollectionInfo, locales: string[]) {
  return (eb: Eb) =>
    eb.and([
      eb('t.status', '=', 'published'),
      eb('t.deleted_at', 'is', null),
      eb('t.slug', 'is not', null),
      eb('t.slug', '!=', ''),
      eb('t.locale', 'in', locales.length ? locales : ['']),
      eb.not(
        eb.exists(
          eb
            .selectFrom('_cms_seo as s')
            .select(sql`1`.as('one'))
            .whereRef('s.entry_id', '=', 't.id')
            .where('s.collection', '=', c.slug)
            .where('s.noindex', '=', 1),
        ),
      ),
    ]);
}

export interface UrlRow {
  id: string;
  slug: string;
  locale: string;
  translation_group: string;
  created_at: string;
  updated_at: string;
}

/** Indexable members of the given translation groups. */
export async function indexableSiblings(
  db: Kdb,
  c: CollectionInfo,
  locales: string[],
  groups: string[],
): Promise<Map<string, UrlRow[]>> {
  const out = new Map<string, UrlRow[]>();
  for (let i = 0; i < groups.length; i += 500) {
    // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
    const rows: UrlRow[] = await (db as any)
      .selectFrom(`${c.table} as t`)
      .select(['t.id', 't.slug', 't.locale', 't.translation_group', 't.created_at', 't.updated_at'])
      .where('t.translation_group', 'in', groups.slice(i, i + 500))
      .where(indexableWhere(c, locales))
      .execute();
    for (const r of rows) out.set(r.translation_group, [...(out.get(r.translation_group) ?? []), r]);
  }
  return out;
}

export interface Alternate {
  hreflang: string;
  href: string;
}

/**
 * Alternates of one translation group: one per indexable member (the entry
 * itself included), in configured-locale order, plus `x-default` (the
 * default-locale variant, else the first routable one).
 */
export function alternatesOf(
  c: CollectionInfo,
  i18n: I18nConfig,
  base: string,
  members: UrlRow[],
  locales: string[],
): Alternate[] {
  const byLocale = new Map(members.map((m) => [m.locale, m]));
  const out: Alternate[] = [];
  for (const locale of locales) {
    const m = byLocale.get(locale);
    if (!m) continue;
    const path = entryPath(c.urlPattern, locale, m.slug, i18n);
    if (path !== null) out.push({ hreflang: locale, href: `${base}${path}` });
  }
  if (!out.length) return out;
  const def = out.find((a) => a.hreflang === i18n.defaultLocale) ?? out[0];
  out.push({ hreflang: 'x-default', href: def.href });
  return out;
}

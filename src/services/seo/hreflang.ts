import type { Actor } from '../../auth/actor.js';
import { notFound } from '../../core/errors.js';
import { canReadDrafts } from '../content/access.js';
import { loadRow } from '../content/rows.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import { siteUrl } from '../settings/site-url.js';
import { type Alternate, alternatesOf, indexableSiblings, isIndexable, routableLocales } from './eligibility.js';

/**
 * Hreflang alternates for an entry's page head (i18n rule 8): one per
 * published, indexable translation (the entry itself included) plus
 * `x-default`; none when the entry is noindex, i18n is off, or there is no
 * site URL (from the call, else the site settings).
 *
 * Anyone may ask about a published entry (the sitemap publishes the same
 * links); a draft answers only to callers who may read drafts (a preview).
 */
export function hreflangOps(ctx: ServiceContext, schema: SchemaService) {
  async function alternates(
    actor: Actor,
    collection: string,
    id: string,
    opts: { siteUrl?: string } = {},
  ): Promise<{ items: Alternate[] }> {
    const c = (await schema.snapshot()).collections.get(collection);
    if (!c) throw notFound(`Collection "${collection}"`);
    const row = await loadRow(ctx.db, c, id);
    const visible = row && (canReadDrafts(actor) || (row.status === 'published' && row.deleted_at === null));
    if (!row || !visible) throw notFound(`Entry in "${c.slug}"`);
    const { i18n } = ctx.config;
    const base = opts.siteUrl?.replace(/\/+$/, '') ?? (await siteUrl(ctx));
    if (!i18n.enabled || !base || !isIndexable(c)) return { items: [] };
    const noindex = await ctx.db
      .selectFrom('_cms_seo')
      .select('noindex')
      .where('collection', '=', c.slug)
      .where('entry_id', '=', id)
      .executeTakeFirst();
    if (noindex?.noindex) return { items: [] };
    const locales = routableLocales(c, i18n);
    const members = (await indexableSiblings(ctx.db, c, locales, [row.translation_group])).get(row.translation_group);
    return { items: alternatesOf(c, i18n, base, members ?? [], locales) };
  }

  return { alternates };
}

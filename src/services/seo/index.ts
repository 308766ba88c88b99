import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import { deletedCollections } from '../schema/deleted.js';
import type { SchemaService } from '../schema/index.js';
import { entrySeoOps } from './entry-seo.js';
import { hreflangOps } from './hreflang.js';
import { sitemapOps } from './sitemap.js';

export type { Alternate } from './eligibility.js';
export type { EntrySeo, EntrySeoInput } from './entry-seo.js';
export { parseSitemapName, sitemapName, URLS_PER_SITEMAP } from './sitemap.js';

/**
 * SEO: entry-level SEO objects, sitemaps and hreflang alternates. An entry's
 * SEO object goes with it: removed on permanent delete (of the entry or of its
 * collection), copied on duplicate.
 */
export function createSeoService(ctx: ServiceContext, deps: { schema: SchemaService; content: ContentService }) {
  deps.content.hooks.afterWrite('seo', async (trx, change) => {
    if (change.kind === 'delete') {
      await trx
        .deleteFrom('_cms_seo')
        .where('collection', '=', change.collection.slug)
        .where('entry_id', 'in', change.ids)
        .execute();
    } else if (change.kind === 'duplicate' && change.duplicateOf) {
      const source = await trx
        .selectFrom('_cms_seo')
        .selectAll()
        .where('collection', '=', change.collection.slug)
        .where('entry_id', '=', change.duplicateOf)
        .executeTakeFirst();
      if (!source) return;
      for (const id of change.ids) {
        await trx
          .insertInto('_cms_seo')
          .values({ ...source, entry_id: id, updated_at: change.now })
          .execute();
      }
    }
  });
  deps.schema.hooks.afterChange('seo', async (trx, change) => {
    const gone = deletedCollections(change).map((c) => c.slug);
    if (gone.length) await trx.deleteFrom('_cms_seo').where('collection', 'in', gone).execute();
  });
  return {
    entry: entrySeoOps(ctx, deps.schema),
    ...hreflangOps(ctx, deps.schema),
    sitemaps: sitemapOps(ctx, deps.schema),
  };
}

export type SeoService = ReturnType<typeof createSeoService>;

import {
  AlternatesQuery,
  AlternatesResult,
  EntrySeoSchema,
  SeoEntryParams,
  UpdateEntrySeoBody,
} from '../../schemas/seo.js';
import { type Api, op } from '../op.js';

/**
 * Entry SEO and hreflang alternates. Not in the spec's route tables: added
 * for i18n rule 8 and the entry-level `noindex`, documented like the rest.
 */
export function seoRoutes(api: Api): void {
  const tags = ['SEO'];
  op(
    api,
    {
      method: 'get',
      path: '/seo/{collection}/{id}/alternates',
      operationId: 'getHreflangAlternates',
      summary: 'Hreflang alternates of an entry for its page head (self, translations, x-default)',
      description:
        'Public for published entries. Empty when the entry is noindex, i18n is off, the collection is not routable and SEO-enabled, or there is no site URL.',
      tags,
      public: true,
      params: SeoEntryParams,
      query: AlternatesQuery,
      response: AlternatesResult,
    },
    async ({ actor, services, params, query }) =>
      services.seo.alternates(actor, params.collection, params.id, { siteUrl: query.siteUrl }),
  );
  op(
    api,
    {
      method: 'get',
      path: '/seo/{collection}/{id}',
      operationId: 'getEntrySeo',
      summary: 'Get the SEO settings of an entry (title, description, canonical, noindex)',
      tags,
      params: SeoEntryParams,
      response: EntrySeoSchema,
    },
    async ({ actor, services, params }) => services.seo.entry.get(actor, params.collection, params.id),
  );
  op(
    api,
    {
      method: 'put',
      path: '/seo/{collection}/{id}',
      operationId: 'updateEntrySeo',
      summary: 'Change the SEO settings of an entry (partial)',
      tags,
      params: SeoEntryParams,
      body: UpdateEntrySeoBody,
      response: EntrySeoSchema,
    },
    async ({ actor, services, params, body }) => services.seo.entry.update(actor, params.collection, params.id, body),
  );
}

import { getEntrySeo, getHreflangAlternates, updateEntrySeo } from '../../operations/seo.js';
import { type Api, route } from '../op.js';

/**
 * Entry SEO and hreflang alternates (operations: operations/seo.ts). Not in the spec's
 * route tables: added for i18n rule 8 and the entry-level `noindex`, documented like the rest.
 */
export function seoRoutes(api: Api): void {
  const tags = ['SEO'];
  route(api, {
    operation: getHreflangAlternates,
    method: 'get',
    path: '/seo/{collection}/{id}/alternates',
    summary: 'Hreflang alternates of an entry for its page head (self, translations, x-default)',
    description:
      'Public for published entries. Empty when the entry is noindex, i18n is off, the collection is not routable and SEO-enabled, or there is no site URL.',
    tags,
    public: true,
  });
  route(api, {
    operation: getEntrySeo,
    method: 'get',
    path: '/seo/{collection}/{id}',
    summary: 'Get the SEO settings of an entry (title, description, canonical, noindex)',
    tags,
  });
  route(api, {
    operation: updateEntrySeo,
    method: 'put',
    path: '/seo/{collection}/{id}',
    summary: 'Change the SEO settings of an entry (partial)',
    tags,
  });
}

import {
  AlternatesQuery,
  AlternatesResult,
  EntrySeoSchema,
  SeoEntryParams,
  UpdateEntrySeoBody,
} from '../schemas/seo.js';
import { operation } from './operation.js';

/**
 * Entry SEO and hreflang alternates (i18n rule 8 and the entry-level `noindex`; REST only, no
 * MCP tool). A token reads them with `content:read` and changes them with `content:write`.
 */
export const getHreflangAlternates = operation({
  id: 'getHreflangAlternates',
  params: SeoEntryParams,
  query: AlternatesQuery,
  output: AlternatesResult,
  writes: false,
  scope: 'content:read',
  run: ({ services, actor }, { params, query }) =>
    services.seo.alternates(actor, params.collection, params.id, { siteUrl: query.siteUrl }),
});

export const getEntrySeo = operation({
  id: 'getEntrySeo',
  params: SeoEntryParams,
  output: EntrySeoSchema,
  writes: false,
  scope: 'content:read',
  run: ({ services, actor }, { params }) => services.seo.entry.get(actor, params.collection, params.id),
});

export const updateEntrySeo = operation({
  id: 'updateEntrySeo',
  params: SeoEntryParams,
  body: UpdateEntrySeoBody,
  output: EntrySeoSchema,
  writes: true,
  scope: 'content:write',
  run: ({ services, actor }, { params, body }) => services.seo.entry.update(actor, params.collection, params.id, body),
});

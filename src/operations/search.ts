import {
  BuildReportSchema,
  EnableSearchBody,
  RebuildSearchBody,
  SearchQuery,
  SearchResultSchema,
  SearchStatsQuery,
  SearchStatsSchema,
  SuggestQuery,
  SuggestResultSchema,
} from '../schemas/search.js';
import { operation } from './operation.js';

/**
 * The search operations (spec: the "Search" table; MCP search). Searching needs content:read;
 * index management (search:manage, checked in the service) follows the content it holds, so
 * tokens need content:write.
 */
const READS = 'content:read';
const MANAGES = 'content:write';

export const search = operation({
  id: 'search',
  query: SearchQuery,
  output: SearchResultSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) =>
    services.search.search(actor, {
      q: query.q,
      collections: query.collection,
      locale: query.locale,
      limit: query.limit,
      cursor: query.cursor,
    }),
});

export const searchSuggest = operation({
  id: 'searchSuggest',
  query: SuggestQuery,
  output: SuggestResultSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) =>
    services.search.suggest(actor, {
      q: query.q,
      collections: query.collection,
      locale: query.locale,
      limit: query.limit,
    }),
});

export const rebuildSearchIndex = operation({
  id: 'rebuildSearchIndex',
  body: RebuildSearchBody,
  output: BuildReportSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { body }) => services.search.rebuild(actor, body.collection),
});

export const enableSearch = operation({
  id: 'enableSearch',
  body: EnableSearchBody,
  output: BuildReportSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { body }) => services.search.enable(actor, body),
});

export const getSearchStats = operation({
  id: 'getSearchStats',
  query: SearchStatsQuery,
  output: SearchStatsSchema,
  writes: false,
  scope: MANAGES,
  run: ({ services, actor }, { query }) => services.search.stats(actor, query.collection),
});

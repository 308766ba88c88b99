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
} from '../../schemas/search.js';
import { type Api, op } from '../op.js';

/** Routes of the spec's "Search" table. Rules live in the search service. */
export function searchRoutes(api: Api): void {
  const tags = ['Search'];
  op(
    api,
    {
      method: 'get',
      path: '/search',
      operationId: 'search',
      summary: 'Full-text search across collections',
      description:
        "Ranked results with highlighted snippets, cursor-paginated. Readers without draft access find published entries only. Paging through a very broad query ends early: a one-word, `word*` or two-word phrase query on a word common in a collection pages through that collection's best entries for it (at least `searchHeadSize`), other broad queries through the best of their `searchRankWindow` most recent matches.",
      tags,
      query: SearchQuery,
      response: SearchResultSchema,
    },
    async ({ actor, services, query }) =>
      services.search.search(actor, {
        q: query.q,
        collections: query.collection,
        locale: query.locale,
        limit: query.limit,
        cursor: query.cursor,
      }),
  );
  op(
    api,
    {
      method: 'get',
      path: '/search/suggest',
      operationId: 'searchSuggest',
      summary: 'Complete what has been typed into entry titles',
      tags,
      query: SuggestQuery,
      response: SuggestResultSchema,
    },
    async ({ actor, services, query }) =>
      services.search.suggest(actor, {
        q: query.q,
        collections: query.collection,
        locale: query.locale,
        limit: query.limit,
      }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/search/rebuild',
      operationId: 'rebuildSearchIndex',
      summary: 'Rebuild one collection’s index (stored tokenizer and weights); resumes a rebuild in progress',
      tags,
      body: RebuildSearchBody,
      response: BuildReportSchema,
    },
    async ({ actor, services, body }) => services.search.rebuild(actor, body.collection),
  );
  op(
    api,
    {
      method: 'post',
      path: '/search/enable',
      operationId: 'enableSearch',
      summary: 'Enable or disable search for a collection; set its tokenizer and field weights',
      tags,
      body: EnableSearchBody,
      response: BuildReportSchema,
    },
    async ({ actor, services, body }) => services.search.enable(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: '/search/stats',
      operationId: 'getSearchStats',
      summary: 'Index state per collection: documents, size, tokenizer, weights, last rebuild, progress',
      tags,
      query: SearchStatsQuery,
      response: SearchStatsSchema,
    },
    async ({ actor, services, query }) => services.search.stats(actor, query.collection),
  );
}

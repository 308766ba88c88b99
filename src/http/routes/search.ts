import { enableSearch, getSearchStats, rebuildSearchIndex, search, searchSuggest } from '../../operations/search.js';
import { type Api, route } from '../op.js';

/** Routes of the spec's "Search" table (operations: operations/search.ts). Rules live in the search service. */
export function searchRoutes(api: Api): void {
  const tags = ['Search'];
  route(api, {
    operation: search,
    method: 'get',
    path: '/search',
    summary: 'Full-text search across collections',
    description:
      "Ranked results with highlighted snippets, cursor-paginated. Readers without draft access find published entries only. Paging through a very broad query ends early: a one-word, `word*` or two-word phrase query on a word common in a collection pages through that collection's best entries for it (at least `searchHeadSize`), other broad queries through the best of their `searchRankWindow` most recent matches.",
    tags,
  });
  route(api, {
    operation: searchSuggest,
    method: 'get',
    path: '/search/suggest',
    summary: 'Complete what has been typed into entry titles',
    tags,
  });
  route(api, {
    operation: rebuildSearchIndex,
    method: 'post',
    path: '/search/rebuild',
    summary: 'Rebuild one collection’s index (stored tokenizer and weights); resumes a rebuild in progress',
    tags,
  });
  route(api, {
    operation: enableSearch,
    method: 'post',
    path: '/search/enable',
    summary: 'Enable or disable search for a collection; set its tokenizer and field weights',
    tags,
  });
  route(api, {
    operation: getSearchStats,
    method: 'get',
    path: '/search/stats',
    summary: 'Index state per collection: documents, size, tokenizer, weights, last rebuild, progress',
    tags,
  });
}

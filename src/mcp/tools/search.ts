import { z } from 'zod';
import { search } from '../../operations/search.js';
import { SlugParam } from '../../schemas/common.js';
import { SearchQuery, SearchQueryText } from '../../schemas/search.js';
import { READ, type ToolDef, toolOf } from '../registry.js';

const SearchInput = z.object({
  query: SearchQueryText.describe(
    'Words (all must match), "exact phrase", prefix*, a OR b, -excluded; anything else is plain text',
  ),
  collections: z
    .array(SlugParam)
    .max(50)
    .optional()
    .describe('Collection slugs to search (default: every collection with search enabled)'),
  locale: SearchQuery.shape.locale.describe("Locale to search (default: the site's default locale)"),
  limit: z.number().int().min(1).max(100).optional().describe('Results per page, 1 to 100 (default 20)'),
  cursor: SearchQuery.shape.cursor.describe('nextCursor of the previous page'),
});

export const searchTools: ToolDef[] = [
  toolOf(search, {
    name: 'search',
    title: 'Search Content',
    description:
      'Full-text search across collections with search enabled: ranked entries with an HTML snippet (matches in <mark>). ' +
      'Tokens without draft access find published entries only. Use content_get with the returned collection and id for the whole entry.',
    annotations: READ,
    input: SearchInput,
    // The REST query names the collections comma-separated.
    toArgs: (a) => ({
      query: { q: a.query, collection: a.collections?.join(','), locale: a.locale, limit: a.limit, cursor: a.cursor },
    }),
  }),
];

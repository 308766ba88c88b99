import { z } from '@hono/zod-openapi';
import { isStorableText } from '../core/text.js';
import { BUILD_PHASES, TOKENIZERS } from '../services/search/model.js';
import { MAX_WEIGHT, SearchWeight } from '../services/search/tiers.js';
import { SlugParam } from './common.js';

/** Request and response shapes of the search API (REST and the MCP `search` tool). */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
/** Text both databases accept (no NUL, no unpaired surrogate), so both answer the same 400. */
const searchText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .refine(isStorableText, 'must not contain NUL characters (U+0000) or unpaired surrogates');

export const SearchQueryText = searchText(1000).openapi({
  description:
    'Words (all must match), "exact phrases", prefix*, a OR b, -excluded. Other operators are treated as text.',
  example: 'headless "content model" -wordpress',
});

const collectionList = z
  .string()
  .max(2000)
  .transform((s, ctx) => {
    const list = s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    for (const [i, slug] of list.entries()) {
      if (!SlugParam.safeParse(slug).success) {
        ctx.addIssue({ code: 'custom', path: [i], message: `"${slug.slice(0, 70)}" is not a collection slug` });
      }
    }
    if (list.length > 50) ctx.addIssue({ code: 'custom', message: 'at most 50 collections' });
    return list;
  });

const limitParam = (max: number, dflt: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer', description: `1 to ${max}, default ${dflt}` });

export const SearchQuery = z.object({
  q: SearchQueryText.openapi({ param: { name: 'q', in: 'query' } }),
  collection: collectionList.optional().openapi({
    param: { name: 'collection', in: 'query' },
    type: 'string',
    description: 'Comma-separated collection slugs (default: every collection with search enabled)',
  }),
  locale: z
    .string()
    .max(40)
    .optional()
    .openapi({ param: { name: 'locale', in: 'query' }, description: "Default: the site's default locale" }),
  limit: limitParam(100, 20),
  cursor: z
    .string()
    .max(500)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' }, description: '`nextCursor` of the previous page' }),
});

export const SuggestQuery = z.object({
  q: searchText(200).openapi({ param: { name: 'q', in: 'query' }, description: 'What has been typed so far' }),
  collection: SearchQuery.shape.collection,
  locale: SearchQuery.shape.locale,
  limit: limitParam(20, 8),
});

export const SearchHitSchema = z
  .object({
    id: z.string(),
    collection: z.string(),
    locale: z.string(),
    slug: z.string().nullable(),
    title: z.string().nullable(),
    status: z.string().openapi({ description: 'draft, published or scheduled' }),
    snippet: z.string().openapi({
      description: 'Best matching passage as HTML: text escaped, matches wrapped in <mark>',
      example: 'A <mark>headless</mark> CMS keeps content apart from presentation…',
    }),
    score: z.number().openapi({ description: 'Relevance (higher first); comparable within one query' }),
  })
  .openapi('SearchHit');

export const SearchResultSchema = z
  .object({ items: z.array(SearchHitSchema), nextCursor: z.string().optional() })
  .openapi('SearchResult');

export const SuggestResultSchema = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        collection: z.string(),
        locale: z.string(),
        slug: z.string().nullable(),
        title: z.string(),
      }),
    ),
  })
  .openapi('SearchSuggestions');

const Tokenizer = z.enum(TOKENIZERS).openapi({
  description:
    '`porter unicode61` (default; English with stemming), `unicode61` (no stemming), `trigram` (substrings; text without spaces)',
});

export const EnableSearchBody = z
  .object({
    collection: SlugParam,
    enabled: z.boolean().optional().openapi({ description: 'false disables search (the settings are kept)' }),
    tokenizer: Tokenizer.optional().openapi({ description: 'Changing it on an enabled collection rebuilds the index' }),
    weights: z
      .record(z.string(), SearchWeight)
      .optional()
      .openapi({
        description: `Searchable field slug → weight (default 1, at most ${MAX_WEIGHT}, at most four different values)`,
        example: { title: 10, body: 1 },
      }),
  })
  .strict()
  .openapi('EnableSearchRequest');

export const RebuildSearchBody = z.object({ collection: SlugParam }).strict().openapi('RebuildSearchIndexRequest');

export const SearchStatsQuery = z.object({
  collection: SlugParam.optional().openapi({ param: { name: 'collection', in: 'query' } }),
});

export const CollectionSearchStatusSchema = z
  .object({
    collection: z.string(),
    enabled: z.boolean(),
    tokenizer: Tokenizer,
    weights: z.record(z.string(), z.number()).openapi({ description: 'Searchable field slug → weight' }),
    state: z.enum(['disabled', 'ready', 'building']),
    documents: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Indexed documents (a published entry with a pending draft has two)' }),
    sizeBytes: z.number().nullable().openapi({ description: 'Disk size of the index' }),
    lastRebuildAt: Instant.nullable(),
    lastRebuildMs: z.number().nullable(),
    build: z
      .object({
        phase: z.enum(BUILD_PHASES),
        done: z.number().int(),
        total: z.number().int(),
        startedAt: Instant,
        reason: z.string(),
      })
      .nullable()
      .openapi({
        description:
          'Progress of a rebuild in progress: `indexing` counts entries, `merging` compacts the new index (SQLite), `ranking` counts documents as the lists of the best entries for common words are filled',
      }),
  })
  .openapi('CollectionSearchStatus');

export const BuildReportSchema = CollectionSearchStatusSchema.extend({
  nextRequestInMs: z
    .number()
    .int()
    .nullable()
    .openapi({ description: 'While a rebuild runs: ask again after this delay; null when the index is ready' }),
}).openapi('SearchIndexReport');

export const SearchStatsSchema = z
  .object({ collections: z.array(CollectionSearchStatusSchema) })
  .openapi('SearchStats');

/**
 * Search queries for any screen: ranked results page by page, and title
 * suggestions while typing. Both go through the typed client (GET /search,
 * GET /search/suggest) and follow the caller's read rules on the server.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';

export type SearchHit = Schemas['SearchHit'];
export type Suggestion = Schemas['SearchSuggestions']['items'][number];

export interface SearchParams {
  q: string;
  /** Collection slugs; all collections with search enabled when omitted. */
  collections?: string[];
  locale?: string;
  /** Results per page (1–100, default 20). */
  limit?: number;
}

/** The value after it stopped changing for `ms` (search-as-you-type without a request per key). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const collectionParam = (list?: string[]) => (list?.length ? list.join(',') : undefined);

/** Ranked results with cursor pages (`fetchNextPage` loads more); idle while `q` is blank. */
export function useSearchResults({ q, collections, locale, limit }: SearchParams) {
  const query = q.trim();
  return useInfiniteQuery({
    queryKey: ['search', { q: query, collections: collectionParam(collections), locale, limit }],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/search', {
          params: { query: { q: query, collection: collectionParam(collections), locale, limit, cursor: pageParam } },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor,
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** Shortest input the server completes (one letter would match most titles). */
export const MIN_SUGGEST_CHARS = 2;

/** Title completions for what has been typed so far. */
export function useSuggestions(
  q: string,
  { collections, locale, limit = 8, enabled = true }: Omit<SearchParams, 'q'> & { enabled?: boolean } = {},
) {
  const query = q.trim();
  return useQuery({
    queryKey: ['search-suggest', { q: query, collections: collectionParam(collections), locale, limit }],
    queryFn: () =>
      unwrap(
        api.GET('/search/suggest', {
          params: { query: { q: query, collection: collectionParam(collections), locale, limit } },
        }),
      ),
    enabled: enabled && [...query].length >= MIN_SUGGEST_CHARS,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * A result snippet (escaped HTML whose only tags are <mark>) as text parts,
 * so it renders without innerHTML: nothing in it can become markup.
 */
export function snippetParts(html: string): Array<{ text: string; mark: boolean }> {
  const parts: Array<{ text: string; mark: boolean }> = [];
  let mark = false;
  for (const piece of html.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>') mark = true;
    else if (piece === '</mark>') mark = false;
    else if (piece) parts.push({ text: piece.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]), mark });
  }
  return parts;
}

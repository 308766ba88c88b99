import { useInfiniteQuery } from '@tanstack/react-query';
import { listMedia, type MediaFilters, mediaKeys } from '../../api/media';

/** The library, newest first, page after page (cursor pagination: "Load more"). */
export function useMediaList(filters: MediaFilters, enabled = true) {
  const query = useInfiniteQuery({
    queryKey: mediaKeys.list(filters),
    queryFn: ({ pageParam }) => listMedia(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return { ...query, items };
}

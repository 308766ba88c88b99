import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { mediaUsageCount, mediaUsagePage } from '../../api/media';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/Feedback';

/** What each coverage state lets the panel say; only `complete` makes "unused" a fact. */
const COVERAGE_TEXT: Record<string, string> = {
  complete: 'Every collection is indexed.',
  never: 'Usage tracking is off on this site: entries are not counted yet, only site settings.',
  running: 'Indexing is in progress: the list may be incomplete.',
  partial: 'Some entries could not be indexed: the list may be incomplete.',
  failed: 'Indexing failed for some content: the list may be incomplete.',
  stale: 'The schema changed since indexing: the list may be out of date until a repair.',
  unknown: 'The index is in a state this version does not recognise.',
};

/** Where a media item is used: entries (paged) and site settings, with the index coverage stated plainly. */
export function UsagePanel({ id }: { id: string }) {
  const count = useQuery({ queryKey: ['media', 'usage-count', id], queryFn: () => mediaUsageCount(id) });
  const pages = useInfiniteQuery({
    queryKey: ['media', 'usage', id],
    queryFn: ({ pageParam }) => mediaUsagePage(id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  const usage = count.data?.item.usage;
  const first = pages.data?.pages[0];
  const entries = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const settings = first?.siteSettings ?? [];
  const coverage = usage?.coverage ?? first?.coverage;
  return (
    <section className="stack" aria-label="Usage">
      <h3>Usage</h3>
      <ErrorMessage error={count.error ?? pages.error} />
      {usage && usage.count !== null ? (
        <p>
          {usage.count === 0 && coverage === 'complete'
            ? 'Not used by any entry or site setting.'
            : `Used ${usage.count} time${usage.count === 1 ? '' : 's'}.`}
        </p>
      ) : null}
      {coverage ? <p className="muted">{COVERAGE_TEXT[coverage] ?? COVERAGE_TEXT.unknown}</p> : null}
      {settings.length ? <p>Site settings: {settings.map((s) => s.setting).join(', ')}</p> : null}
      {entries.length ? (
        <ul>
          {entries.map((e) => (
            <li key={e.id}>
              <Link to="/content/$collection/$id" params={{ collection: e.collection, id: e.id }} search={{}}>
                {e.title ?? e.id}
              </Link>{' '}
              <span className="muted">
                {e.collection} · {e.locale} · {e.status}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {pages.hasNextPage ? (
        <Button size="small" variant="ghost" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          More
        </Button>
      ) : null}
    </section>
  );
}

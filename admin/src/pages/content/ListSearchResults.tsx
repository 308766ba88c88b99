import { Link } from '@tanstack/react-router';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { Snippet, useSearchResults } from '../../components/search';

/**
 * The entry list while a search is typed: the search API's ranked matches in
 * this collection and locale (it applies the caller's read rules), a page at a
 * time. Status filters the loaded matches; the other list filters do not
 * apply to full-text results, and the list says so.
 */
export function ListSearchResults({
  collection,
  locale,
  q,
  status,
  otherFilters,
  onClear,
}: {
  collection: string;
  locale: string;
  q: string;
  status: string | undefined;
  otherFilters: boolean;
  onClear: () => void;
}) {
  const results = useSearchResults({ q, collections: [collection], locale, limit: 50 });
  const all = results.data?.pages.flatMap((p) => p.items) ?? [];
  const hits = status ? all.filter((h) => h.status === status) : all;
  return (
    <section aria-label="Search results" className="list-results">
      {otherFilters ? (
        <p className="field__hint">
          Search results are ranked by relevance; sort order and field, byline and term filters do not apply to them.
        </p>
      ) : null}
      {results.isError ? <ErrorMessage error={results.error} /> : null}
      {results.isPending ? <Spinner label="Searching…" /> : null}
      {results.isSuccess && !hits.length ? (
        <p className="empty">
          Nothing matches <strong>{q}</strong>
          {status ? ` among ${status} entries` : ''}. Try fewer words or a word’s beginning with *.{' '}
          <button type="button" className="linkish" onClick={onClear}>
            Clear the search
          </button>
        </p>
      ) : null}
      {hits.length ? (
        <>
          <p className="results__count" aria-live="polite">
            {hits.length}
            {results.hasNextPage ? '+' : ''} match{hits.length === 1 ? '' : 'es'} for <strong>{q}</strong>
            {results.isFetching && !results.isFetchingNextPage ? ' · updating…' : ''}
          </p>
          <ol className="results" aria-busy={results.isFetching || undefined} data-testid="entry-search-results">
            {hits.map((hit) => (
              <li key={hit.id} className="result">
                <div className="result__head">
                  <Link
                    to="/content/$collection/$id"
                    params={{ collection, id: hit.id }}
                    search={{ locale: hit.locale }}
                    className="result__title cell-title"
                  >
                    {hit.title || hit.slug || hit.id}
                  </Link>
                  <span className={hit.status === 'published' ? 'badge' : 'badge badge--muted'}>{hit.status}</span>
                </div>
                {hit.snippet ? (
                  <p className="result__snippet">
                    <Snippet html={hit.snippet} />
                  </p>
                ) : null}
                {hit.slug ? <p className="result__meta">/{hit.slug}</p> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {results.hasNextPage ? (
        <div className="actions">
          <Button busy={results.isFetchingNextPage} busyLabel="Loading…" onClick={() => results.fetchNextPage()}>
            Show more matches
          </Button>
        </div>
      ) : null}
    </section>
  );
}

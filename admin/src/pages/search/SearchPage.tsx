import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { Me } from '../../api/auth';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { SelectField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { SearchBox, type SearchHit, Snippet, useDebounced, useSearchResults } from '../../components/search';
import { EDITOR } from '../../lib/roles';
import { SearchIndexes, useSearchStats } from './SearchIndexes';

export interface SearchPageSearch {
  q?: string;
  collection?: string;
}

/** Site-wide search (everyone who reads content) and, for Editors, the indexes behind it. */
export function SearchPage({ me, search }: { me: Me; search: SearchPageSearch }) {
  const navigate = useNavigate();
  const [text, setText] = useState(search.q ?? '');
  const settled = useDebounced(text, 300);
  const canManage = me.user.role >= EDITOR;
  const stats = useSearchStats(canManage);
  const searchable = (stats.data?.collections ?? []).filter((c) => c.enabled);

  // Search as you type: the settled text goes to the address, which drives the results (shareable, back button).
  useEffect(() => {
    const q = settled.trim() || undefined;
    if (q !== search.q) navigate({ to: '/search', search: (prev) => ({ ...prev, q }), replace: true });
  }, [settled, search.q, navigate]);

  const results = useSearchResults({
    q: search.q ?? '',
    collections: search.collection ? [search.collection] : undefined,
  });
  const hits = results.data?.pages.flatMap((p) => p.items) ?? [];
  const idle = !search.q;

  return (
    <Page title="Search" description="Find entries by their words in every collection with search enabled.">
      <Section id="find" title="Find content">
        <search className={canManage && searchable.length > 1 ? 'filters' : 'filters filters--single'}>
          <SearchBox
            label="Search"
            value={text}
            onValue={setText}
            onSubmit={(q) => navigate({ to: '/search', search: (prev) => ({ ...prev, q: q.trim() || undefined }) })}
            collections={search.collection ? [search.collection] : undefined}
            placeholder="Words, &quot;a phrase&quot;, prefix*, -exclude"
          />
          {canManage && searchable.length > 1 ? (
            <SelectField
              label="Collection"
              name="collection"
              value={search.collection ?? ''}
              onValue={(v) =>
                navigate({ to: '/search', search: (prev) => ({ ...prev, collection: v || undefined }), replace: true })
              }
            >
              <option value="">All collections</option>
              {searchable.map((c) => (
                <option key={c.collection} value={c.collection}>
                  {c.collection}
                </option>
              ))}
            </SelectField>
          ) : null}
        </search>
        {idle ? (
          <div className="empty search-help">
            <p>Type to search titles and text. Results update as you type.</p>
            <ul>
              <li>
                <kbd>word other</kbd> finds entries with both words (and their forms: <em>run</em> finds
                <em> running</em>)
              </li>
              <li>
                <kbd>"exact phrase"</kbd>, <kbd>comp*</kbd> for words starting with <em>comp</em>,{' '}
                <kbd>cats OR dogs</kbd>, <kbd>-word</kbd> to leave entries out
              </li>
            </ul>
          </div>
        ) : null}
        {results.isError ? <ErrorMessage error={results.error} /> : null}
        {!idle && results.isPending ? <Spinner label="Searching…" /> : null}
        {!idle && results.isSuccess && !hits.length ? (
          <p className="empty">
            Nothing matches <strong>{search.q}</strong>
            {search.collection ? ` in ${search.collection}` : ''}. Try fewer words or a word’s beginning with *.
          </p>
        ) : null}
        {hits.length ? (
          <>
            <p className="results__count" aria-live="polite">
              {hits.length}
              {results.hasNextPage ? '+' : ''} result{hits.length === 1 ? '' : 's'}
              {results.isFetching && !results.isFetchingNextPage ? ' · updating…' : ''}
            </p>
            <ol className="results" aria-busy={results.isFetching || undefined}>
              {hits.map((hit) => (
                <Result key={`${hit.collection}/${hit.id}`} hit={hit} />
              ))}
            </ol>
          </>
        ) : null}
        {results.hasNextPage ? (
          <div className="actions">
            <Button busy={results.isFetchingNextPage} busyLabel="Loading…" onClick={() => results.fetchNextPage()}>
              Show more results
            </Button>
          </div>
        ) : null}
      </Section>
      {canManage ? <SearchIndexes stats={stats} /> : null}
    </Page>
  );
}

function Result({ hit }: { hit: SearchHit }) {
  return (
    <li className="result">
      <div className="result__head">
        <h3 className="result__title">{hit.title || hit.slug || hit.id}</h3>
        <span className="badge">{hit.collection}</span>
        {hit.status !== 'published' ? <span className="badge badge--muted">{hit.status}</span> : null}
      </div>
      {hit.snippet ? (
        <p className="result__snippet">
          <Snippet html={hit.snippet} />
        </p>
      ) : null}
      <p className="result__meta">
        {hit.slug ? <span>/{hit.slug}</span> : null}
        <span>{hit.locale}</span>
        <span className="mono">{hit.id}</span>
      </p>
    </li>
  );
}

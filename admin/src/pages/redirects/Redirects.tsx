import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { type Redirect, type RedirectBody, RedirectForm } from './RedirectForm';
import { RedirectRow } from './RedirectRow';
import { TestPath } from './TestPath';

export interface RedirectsSearch {
  /** Prefill the new rule's source (from the 404 log). */
  source?: string;
  sort?: 'created' | 'source' | 'hits';
  prefix?: string;
}

const PAGE_SIZE = 25;

/** Redirect rules: add (or turn a 404 into one), list with sort and filter, edit in place, test a path. */
export function RedirectsPage({ search }: { search: RedirectsSearch }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const [prefix, setPrefix] = useState(search.prefix ?? '');
  const [notice, setNotice] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<Redirect['warnings']>([]);
  const [actionError, setActionError] = useState<unknown>(null);
  const sort = search.sort ?? 'created';

  useEffect(() => {
    const timer = setTimeout(() => {
      const p = prefix.trim() || undefined;
      if (p !== search.prefix)
        navigate({ to: '/redirects', search: (prev) => ({ ...prev, prefix: p }), replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [prefix, search.prefix, navigate]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter or order starts at the first page
  useEffect(() => setCursors([]), [sort, search.prefix]);

  const list = useQuery({
    queryKey: ['redirects', { sort, prefix: search.prefix, cursor }],
    queryFn: () =>
      unwrap(api.GET('/redirects', { params: { query: { sort, prefix: search.prefix, cursor, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['redirects'] });

  const create = useMutation({
    mutationFn: async (body: RedirectBody) => {
      const created = await unwrap(api.POST('/redirects', { body }));
      // A rule made from the 404 log answers that path from now on: its log entries are done with.
      if (search.source) {
        await unwrap(api.POST('/redirects/404s', { body: { paths: [search.source] } })).catch(() => undefined);
      }
      return created;
    },
    onSuccess: (r) => {
      setActionError(null);
      setNotice(
        `Visitors of ${r.source} now go to ${r.target}.${search.source ? ' Its 404 log entries were removed.' : ''}`,
      );
      setWarnings(r.warnings);
      queryClient.invalidateQueries({ queryKey: ['not-found'] });
      navigate({ to: '/redirects', search: (prev) => ({ ...prev, source: undefined }), replace: true });
      refresh();
    },
  });
  const report = {
    notice: (m: string, w: Redirect['warnings'] = []) => {
      setActionError(null);
      setNotice(m);
      setWarnings(w);
    },
    error: (e: unknown) => {
      setNotice(null);
      setActionError(e);
    },
  };
  const items = list.data?.items ?? [];

  return (
    <Page
      title="Redirects"
      description="Send visitors of old addresses to new ones. Rules apply to every public path outside /_cms that the service does not serve itself."
    >
      <Section
        id="add-redirect"
        title={search.source ? `Redirect ${search.source}` : 'Add a redirect'}
        description={search.source ? 'This path was not found by visitors. Choose where they should go.' : undefined}
      >
        <RedirectForm
          key={search.source ?? 'new'}
          initial={{ source: search.source ?? '' }}
          submitLabel="Add redirect"
          busy={create.isPending}
          error={create.error}
          onSubmit={(body) => create.mutate(body)}
          onCancel={search.source ? () => navigate({ to: '/not-found' }) : undefined}
        />
      </Section>
      <TestPath />
      <Section id="rules" title="Rules">
        <search className="filters">
          <TextField
            label="Source starts with"
            name="prefix"
            type="search"
            placeholder="/blog"
            value={prefix}
            onValue={setPrefix}
          />
          <SelectField
            label="Order"
            name="sort"
            value={sort}
            onValue={(v) =>
              navigate({
                to: '/redirects',
                search: (prev) => ({ ...prev, sort: v as RedirectsSearch['sort'] }),
                replace: true,
              })
            }
          >
            <option value="created">Newest first</option>
            <option value="source">By source</option>
            <option value="hits">Most used</option>
          </SelectField>
        </search>
        <ErrorMessage error={actionError} />
        {notice ? <Notice tone="success">{notice}</Notice> : null}
        {warnings.map((w) => (
          <Notice key={w.message}>
            {w.message}: {w.chain.join(' → ')}
          </Notice>
        ))}
        {list.isPending ? <Spinner label="Loading redirects…" /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !items.length ? (
          <p className="empty">
            {search.prefix
              ? 'No rule starts with this path.'
              : 'No redirects yet. Add one above, or open the 404 log to turn a missing page into a redirect.'}
          </p>
        ) : null}
        {items.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Redirect rules, page {cursors.length + 1}</caption>
              <thead>
                <tr>
                  <th scope="col">From → to</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Hits</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody aria-busy={list.isFetching || undefined}>
                {items.map((r) => (
                  <RedirectRow key={r.id} redirect={r} report={report} onChanged={refresh} />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <nav className="pager" aria-label="Pages of redirects">
          <Button size="small" disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous
          </Button>
          <span className="pager__status" aria-live="polite">
            Page {cursors.length + 1}
          </span>
          <Button
            size="small"
            disabled={!list.data?.nextCursor}
            onClick={() => {
              const next = list.data?.nextCursor;
              if (next) setCursors((c) => [...c, next]);
            }}
          >
            Next
          </Button>
        </nav>
      </Section>
    </Page>
  );
}

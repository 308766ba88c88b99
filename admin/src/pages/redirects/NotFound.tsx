import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { issueFor } from '../../lib/forms';

const PAGE_SIZE = 25;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The 404 log: most-missed paths, one click to a redirect, pruning and clearing (rules stay). */
export function NotFoundPage() {
  const queryClient = useQueryClient();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const summary = useQuery({
    queryKey: ['not-found', { cursor }],
    queryFn: () => unwrap(api.GET('/redirects/404s/summary', { params: { query: { cursor, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['not-found'] });
  const done = (message: string) => {
    setError(null);
    setNotice(message);
    setCursors([]);
    refresh();
  };
  const failed = (e: unknown) => {
    setNotice(null);
    setError(e);
  };
  const dismiss = useMutation({
    mutationFn: (path: string) => unwrap(api.POST('/redirects/404s', { body: { paths: [path] } })),
    onSuccess: (r, path) => done(`Removed ${path} from the log (${r.deleted} entr${r.deleted === 1 ? 'y' : 'ies'}).`),
    onError: failed,
  });
  const clear = useMutation({
    mutationFn: () => unwrap(api.DELETE('/redirects/404s')),
    onSuccess: (r) => done(`Cleared the log (${r.deleted} entries). Redirect rules are unchanged.`),
    onError: failed,
  });
  const data = summary.data;
  const items = data?.items ?? [];

  return (
    <Page
      title="404 log"
      description="Public addresses visitors asked for that no page or redirect answers, most missed first. The log keeps a bounded number of entries; the least seen make room for new ones."
      actions={
        <ConfirmButton
          label="Clear the log"
          question="Remove every entry? Rules stay."
          confirmLabel="Clear"
          onConfirm={() => clear.mutate()}
          busy={clear.isPending}
        />
      }
    >
      <Section id="misses" title="Top missing paths">
        {data ? (
          <p className="row__meta">
            <span>{data.totalHits} misses recorded</span>
            <span>{data.entries} entries</span>
            {data.evictedHits ? <span>{data.evictedHits} older misses rolled up to stay within the bound</span> : null}
          </p>
        ) : null}
        <ErrorMessage error={error} />
        {notice ? <Notice tone="success">{notice}</Notice> : null}
        {summary.isPending ? <Spinner label="Loading the log…" /> : null}
        {summary.isError ? <ErrorMessage error={summary.error} /> : null}
        {summary.isSuccess && !items.length ? (
          <p className="empty">
            No missing pages recorded. When visitors ask for an address nothing answers, it shows up here, ready to be
            redirected.
          </p>
        ) : null}
        {items.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Missing paths, page {cursors.length + 1}</caption>
              <thead>
                <tr>
                  <th scope="col">Path</th>
                  <th scope="col">Misses</th>
                  <th scope="col">Referrers</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody aria-busy={summary.isFetching || undefined}>
                {items.map((g) => (
                  <tr key={g.path}>
                    <td data-label="Path">
                      <code className="cell-title path">{g.path}</code>
                      <span className="cell-sub">first {formatDateTime(g.firstSeen)}</span>
                    </td>
                    <td data-label="Misses">{g.count}</td>
                    <td data-label="Referrers">{g.referrers}</td>
                    <td data-label="Last seen" className="cell-date">
                      {formatDateTime(g.lastSeen)}
                    </td>
                    <td data-label="Actions" className="cell-actions">
                      <Link
                        className="button button--small button--primary"
                        to="/redirects"
                        search={{ source: g.path }}
                      >
                        Create a redirect<span className="visually-hidden"> from {g.path}</span>
                      </Link>
                      <Button size="small" variant="ghost" onClick={() => dismiss.mutate(g.path)}>
                        Dismiss<span className="visually-hidden"> {g.path}</span>
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <nav className="pager" aria-label="Pages of missing paths">
          <Button size="small" disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous
          </Button>
          <span className="pager__status" aria-live="polite">
            Page {cursors.length + 1}
          </span>
          <Button
            size="small"
            disabled={!data?.nextCursor}
            onClick={() => {
              const next = data?.nextCursor;
              if (next) setCursors((c) => [...c, next]);
            }}
          >
            Next
          </Button>
        </nav>
      </Section>
      <PruneForm onPruned={(n) => done(`Pruned ${n} entr${n === 1 ? 'y' : 'ies'}. Redirect rules are unchanged.`)} />
    </Page>
  );
}

function PruneForm({ onPruned }: { onPruned: (deleted: number) => void }) {
  const [days, setDays] = useState('30');
  const [maxCount, setMaxCount] = useState('');
  const [local, setLocal] = useState<string | undefined>();
  const prune = useMutation({
    mutationFn: (body: { before: string; maxCount?: number }) => unwrap(api.POST('/redirects/404s', { body })),
    onSuccess: (r) => onPruned(r.deleted),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const n = Number(days);
    const m = maxCount.trim() === '' ? undefined : Number(maxCount);
    if (!Number.isInteger(n) || n < 0 || (m !== undefined && (!Number.isInteger(m) || m < 0))) {
      setLocal('Use whole numbers of days and misses.');
      return;
    }
    setLocal(undefined);
    prune.mutate({ before: new Date(Date.now() - n * DAY_MS).toISOString(), maxCount: m });
  }
  return (
    <Section id="prune" title="Prune" description="Remove old entries, and optionally only those seen a few times.">
      <form className="inline-form inline-form--3" onSubmit={submit} noValidate>
        <TextField
          label="Not seen for (days)"
          name="days"
          inputMode="numeric"
          value={days}
          onValue={setDays}
          error={local ?? issueFor(prune.error, 'before')}
        />
        <TextField
          label="Seen at most (times)"
          name="maxCount"
          inputMode="numeric"
          optional
          placeholder="any"
          value={maxCount}
          onValue={setMaxCount}
          error={issueFor(prune.error, 'maxCount')}
        />
        <Button type="submit" busy={prune.isPending}>
          Prune
        </Button>
      </form>
      {prune.isError && !issueFor(prune.error, 'before') ? <ErrorMessage error={prune.error} /> : null}
    </Section>
  );
}

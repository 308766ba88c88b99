import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { listUsageWork, retryUsageWork, type UsageWorkItem, usageKeys } from '../../api/mediaUsage';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { WORK_STATUS_TEXT } from './words';

type Kind = UsageWorkItem['kind'];

/** Both work lists the API exposes: historical indexing per collection, and clearing deleted collections. */
export function WorkPanel() {
  return (
    <Section
      id="usage-work"
      title="Work items"
      description="Indexing and clean-up run in steps, each claimed for a minute at a time. A failed or stuck item can be run again here; running a finished one changes nothing."
    >
      <WorkList kind="index" title="Indexing" />
      <WorkList kind="collection-deletion" title="Deleted collections" />
    </Section>
  );
}

function WorkList({ kind, title }: { kind: Kind; title: string }) {
  const pages = useInfiniteQuery({
    queryKey: usageKeys.work(kind),
    queryFn: ({ pageParam }) => listUsageWork(kind, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const backlog = pages.data?.pages[0]?.backlog;
  return (
    <div className="stack">
      <h3>
        {title}
        {backlog === 'some' ? <span className="badge">backlog</span> : null}
      </h3>
      {pages.isPending ? <Spinner /> : null}
      <ErrorMessage error={pages.error} />
      {pages.isSuccess && !items.length ? <p className="empty">No work items.</p> : null}
      <ul className="rows" aria-label={`${title} work items`} hidden={!items.length}>
        {items.map((item) => (
          <WorkRow key={item.id} item={item} />
        ))}
      </ul>
      {pages.hasNextPage ? (
        <Button size="small" variant="ghost" onClick={() => pages.fetchNextPage()} busy={pages.isFetchingNextPage}>
          Show more
        </Button>
      ) : null}
    </div>
  );
}

function WorkRow({ item }: { item: UsageWorkItem }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    // The version read goes along: WORK_CHANGED if someone else moved the item meanwhile.
    mutationFn: () => retryUsageWork(item),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usageKeys.all }),
  });
  const leased = item.leaseExpiresAt && item.status === 'running';
  return (
    <li className="row row--stack">
      <div className="row__main">
        <p className="row__title">
          <code className="code">{item.collection}</code> · {WORK_STATUS_TEXT[item.status] ?? item.status}
          {item.lastErrorCode ? (
            <>
              {' '}
              · <code className="code">{item.lastErrorCode}</code>
            </>
          ) : null}
        </p>
        <p className="row__meta">
          <span>
            {item.attempts} attempt{item.attempts === 1 ? '' : 's'}
          </span>
          <span>updated {formatDateTime(item.updatedAt)}</span>
          {leased ? <span>claimed until {formatDateTime(item.leaseExpiresAt)}</span> : null}
        </p>
      </div>
      {item.status !== 'done' ? (
        <div className="actions">
          <Button size="small" busy={retry.isPending} busyLabel="Running…" onClick={() => retry.mutate()}>
            Run again
          </Button>
        </div>
      ) : null}
      <ErrorMessage error={retry.error} />
    </li>
  );
}

import { useInfiniteQuery } from '@tanstack/react-query';
import { importKeys, listImports, type TransferImport } from '../../api/transferImport';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { startedByText } from './ImportFlow';
import { ExecuteBar, filesText, HoldsSiteBadge, ImportStateBadge } from './ImportParts';
import type { ImportRunner } from './useImportRunner';
import { plural } from './words';

/**
 * The imports, newest first, ten a page. Refreshed every 2 seconds while
 * one executes that this page is not driving (the server's worker moves it
 * on), so its progress and end show here.
 */
export function useImports(runner: ImportRunner) {
  const driven = runner.busy ? runner.current?.id : undefined;
  return useInfiniteQuery({
    queryKey: importKeys.list,
    queryFn: ({ pageParam }) => listImports(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.items.some((i) => i.state === 'executing' && i.id !== driven)) ? 2_000 : false,
  });
}

/** What reopening an import does, by its state. */
function reopenLabel(op: TransferImport): string {
  switch (op.state) {
    case 'uploading':
      return 'Continue upload';
    case 'analyzing':
      return 'Continue analysis';
    case 'planned':
      return 'Review the plan';
    case 'executing':
      return 'Continue';
    case 'complete':
      return 'Show the receipt';
    case 'failed':
    case 'cancelled':
      return 'Open';
    default:
      return 'Open';
  }
}

function ImportRow({
  op,
  shown,
  driving,
  canOpen,
  onOpen,
}: {
  op: TransferImport;
  /** It is the import shown above. */
  shown: boolean;
  driving: boolean;
  canOpen: boolean;
  onOpen: () => void;
}) {
  const titleId = `import-${op.id}-title`;
  return (
    <li className="transfer-item" aria-labelledby={titleId} data-testid="import-row" data-state={op.state}>
      <div className="transfer-item__head">
        <h3 className="transfer-item__title" id={titleId}>
          Import of {formatDateTime(op.createdAt)}
        </h3>
        <span className="pill-group">
          {op.holdsSite ? <HoldsSiteBadge /> : null}
          <ImportStateBadge state={op.state} />
        </span>
      </div>
      <p className="row__meta">
        <span>{startedByText(op)}</span>
        <span>Updated {formatDateTime(op.updatedAt)}</span>
        {op.completedAt ? (
          <span>
            {op.state === 'complete' ? 'Finished' : 'Ended'} {formatDateTime(op.completedAt)}
          </span>
        ) : null}
        <span>
          ID <code className="code">{op.id}</code>
        </span>
      </p>
      <p className="small">
        {filesText(op)}
        {op.plan
          ? ` · plan ${op.plan.executable ? 'ready' : `with ${plural(op.plan.blockers, 'blocker')}`}${op.plan.warnings ? `, ${plural(op.plan.warnings, 'warning')}` : ''}`
          : ''}
      </p>
      {op.state === 'executing' ? <ExecuteBar op={op} /> : null}
      {op.error ? (
        <p className="small transfer-row__error">
          <code className="code">{op.error.code}</code>: {op.error.message}
        </p>
      ) : null}
      {shown ? (
        <p className="small muted">{driving ? 'This page is running it (above).' : 'Shown above.'}</p>
      ) : (
        <div className="actions">
          <Button
            size="small"
            variant={op.state === 'abandoned' ? 'ghost' : 'secondary'}
            disabled={!canOpen}
            onClick={onOpen}
          >
            {reopenLabel(op)}
            <span className="visually-hidden"> the import of {formatDateTime(op.createdAt)}</span>
          </Button>
        </div>
      )}
    </li>
  );
}

/** Earlier imports, newest first, each reopened in the panel above (and driven on from there). */
export function ImportList({ runner }: { runner: ImportRunner }) {
  const pages = useImports(runner);
  const items = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const open = (op: TransferImport) => {
    if (op.state === 'executing' || op.state === 'analyzing') runner.drive(op);
    else runner.open(op);
  };
  return (
    <Section
      id="transfer-imports"
      title="Imports"
      description="Newest first. An import left unfinished for 7 days is abandoned and its uploaded files removed."
    >
      {pages.isPending ? <Spinner /> : null}
      <ErrorMessage error={pages.error} />
      {pages.isSuccess && !items.length ? <p className="empty">No imports yet.</p> : null}
      {items.length ? (
        <ul className="transfer-list" aria-label="Imports">
          {items.map((item) => (
            <ImportRow
              key={item.id}
              op={item}
              shown={item.id === runner.current?.id}
              driving={runner.busy && item.id === runner.current?.id}
              canOpen={!runner.busy}
              onOpen={() => open(item)}
            />
          ))}
        </ul>
      ) : null}
      {pages.hasNextPage ? (
        <div className="actions transfer-more">
          <Button onClick={() => pages.fetchNextPage()} busy={pages.isFetchingNextPage} busyLabel="Loading…">
            Load more
          </Button>
        </div>
      ) : null}
    </Section>
  );
}

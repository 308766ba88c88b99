import { importKeys, listImports, type TransferImport } from '../../api/transferImport';
import { Button } from '../../components/Button';
import { Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { startedByText } from './ImportFlow';
import { ExecuteBar, filesText, ImportBadges } from './ImportParts';
import { ItemRow, OperationId, PagedList, useCursorPages } from './TransferParts';
import type { ImportRunner } from './useImportRunner';
import { plural } from './words';

/**
 * The imports, newest first, ten a page. Refreshed every 2 seconds while
 * one executes that this page is not driving (the server's worker moves it
 * on), so its progress and end show here.
 */
export function useImports(runner: ImportRunner) {
  const driven = runner.busy ? runner.current?.id : undefined;
  return useCursorPages(importKeys.list, listImports, {
    refetchInterval: (loaded) => (loaded.some((i) => i.state === 'executing' && i.id !== driven) ? 2_000 : false),
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
  return (
    <ItemRow
      id={`import-${op.id}-title`}
      testId="import-row"
      state={op.state}
      title={<>Import of {formatDateTime(op.createdAt)}</>}
      badges={<ImportBadges op={op} />}
    >
      <p className="row__meta">
        <span>{startedByText(op)}</span>
        <span>Updated {formatDateTime(op.updatedAt)}</span>
        {op.completedAt ? (
          <span>
            {op.state === 'complete' ? 'Finished' : 'Ended'} {formatDateTime(op.completedAt)}
          </span>
        ) : null}
        <OperationId id={op.id} />
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
    </ItemRow>
  );
}

/** Earlier imports, newest first, each reopened in the panel above (and driven on from there). */
export function ImportList({ runner }: { runner: ImportRunner }) {
  const pages = useImports(runner);
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
      <PagedList
        pages={pages}
        label="Imports"
        empty="No imports yet."
        row={(item) => (
          <ImportRow
            key={item.id}
            op={item}
            shown={item.id === runner.current?.id}
            driving={runner.busy && item.id === runner.current?.id}
            canOpen={!runner.busy}
            onOpen={() => open(item)}
          />
        )}
      />
    </Section>
  );
}

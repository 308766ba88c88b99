import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getPlan, getReceipt, importKeys, type TransferImport } from '../../api/transferImport';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Notice, Spinner } from '../../components/Feedback';
import { formatDateTime } from '../../lib/format';
import {
  AnalyzeBar,
  ArchivePicker,
  ExecuteBar,
  filesText,
  ImportBadges,
  ImportSteps,
  TransferError,
  UploadBar,
} from './ImportParts';
import { PlanView } from './ImportPlan';
import { ReceiptView } from './ImportReceipt';
import { EXECUTE_STAGE } from './importWords';
import { ContinueInBackground, EndedWith, ItemHead, MayLeave, OperationId } from './TransferParts';
import type { ImportRunner } from './useImportRunner';

const CANCELLABLE = new Set(['uploading', 'analyzing', 'planned', 'executing']);

/** Who started an import: the user, and the token when it came through one (an MCP client, the CLI against a site). */
export function startedByText(op: TransferImport): string {
  const by = op.startedBy;
  if (!by) return 'Started on the server’s command line';
  const who = by.name ?? 'a user without a name';
  return by.tokenName ? `Started by ${who} with the token “${by.tokenName}”` : `Started by ${who}`;
}

/** The site is held: what that means, and what ends it. */
export function HoldNotice({ op }: { op: TransferImport }) {
  const ends =
    op.state === 'executing' ? 'until it completes' : 'until it is abandoned (abandoning undoes what it wrote)';
  return (
    <div className="alert alert--warn transfer-hold" data-testid="holds-site">
      <p className="transfer-hold__text">
        <strong>This import holds the site.</strong> Every other change — by editors, API clients, AI tools and
        scheduled publishing — is refused with <code className="code">503 TRANSFER_IMPORT_IN_PROGRESS</code> {ends}.
      </p>
    </div>
  );
}

/** The import this page shows: where it is, and what can be done with it now. */
export function ImportFlow({ op, runner }: { op: TransferImport; runner: ImportRunner }) {
  const titleId = `import-${op.id}-current`;
  const { activity, busy } = runner;
  // Another import shown here (started, or reopened from the list) brings the focus with it.
  useEffect(() => {
    document.getElementById(titleId)?.focus({ preventScroll: false });
  }, [titleId]);

  const plan = useQuery({
    queryKey: importKeys.plan(op.id, op.planDigest),
    queryFn: () => getPlan(op.id),
    enabled: op.state === 'planned' && op.planDigest !== null,
  });
  const receipt = useQuery({
    queryKey: importKeys.receipt(op.id),
    queryFn: () => getReceipt(op.id),
    enabled: op.state === 'complete',
  });

  const uploadingNow = activity === 'uploading' || activity === 'reading';
  const planMissesFiles = op.state === 'planned' && op.files.missing > 0;

  return (
    <section className="transfer-current" data-testid="current-import" data-state={op.state} aria-labelledby={titleId}>
      <ItemHead titleId={titleId} title={<>Import of {formatDateTime(op.createdAt)}</>} focusable>
        <ImportBadges op={op} />
      </ItemHead>
      <p className="row__meta">
        <span>{startedByText(op)}</span>
        <OperationId id={op.id} />
      </p>
      <ImportSteps op={op} />
      {op.holdsSite ? <HoldNotice op={op} /> : null}
      <TransferError error={runner.error} />

      {uploadingNow ? (
        runner.upload ? (
          <UploadBar progress={runner.upload} />
        ) : (
          <Spinner label="Reading the archive…" />
        )
      ) : null}
      {activity === 'analyzing' ? <AnalyzeBar steps={runner.analyzeSteps} /> : null}
      {!busy && (op.state === 'uploading' || planMissesFiles) ? (
        <>
          <p>
            {filesText(op)} uploaded.{' '}
            {op.packageDigest === null
              ? 'Pick the package archive to upload it.'
              : 'Pick the same archive again to upload the files still missing: those already uploaded are skipped.'}
          </p>
          <ArchivePicker
            label="Package archive (.tar) of this import"
            hint="The file is read in place: only the package’s files are sent, two at a time."
            submit="Continue upload"
            busy={false}
            busyLabel="Uploading…"
            onPick={(file) => runner.resume(op, file)}
          />
        </>
      ) : null}
      {!busy && op.state === 'analyzing' ? (
        <div className="actions">
          <Button variant="primary" size="small" onClick={() => runner.analyze(op)}>
            Continue analysis
          </Button>
          <span className="small muted">The analysis runs while this page asks for it.</span>
        </div>
      ) : null}

      {op.state === 'planned' ? (
        plan.data ? (
          <PlanView plan={plan.data} runner={runner} />
        ) : plan.isPending ? (
          <Spinner label="Reading the plan…" />
        ) : (
          <TransferError error={plan.error} />
        )
      ) : null}

      {op.state === 'executing' ? (
        <>
          <p>
            <strong>{EXECUTE_STAGE[op.stage ?? ''] ?? `Importing (stage ${op.stage ?? '—'})`}</strong>
          </p>
          <ExecuteBar op={op} />
          {activity === 'executing' ? (
            <MayLeave what="import" />
          ) : (
            <ContinueInBackground disabled={busy} onContinue={() => runner.drive(op)} />
          )}
        </>
      ) : null}

      {op.state === 'complete' ? (
        receipt.data ? (
          <ReceiptView receipt={receipt.data} />
        ) : receipt.isPending ? (
          <Spinner label="Reading the receipt…" />
        ) : (
          <TransferError error={receipt.error} />
        )
      ) : null}

      {op.state === 'failed' || op.state === 'cancelled' ? (
        <div className="alert alert--error" data-testid="import-failure">
          <p>
            {op.state === 'failed' ? 'The import failed' : 'The import was cancelled'}
            <EndedWith error={op.error} />
          </p>
          <p className="small">
            {op.holdsSite
              ? 'It had started executing, so it holds the site. Abandon it to undo whatever it wrote and open the site for changes again; then start a new import.'
              : 'Nothing of it was written. Abandon it to remove its uploaded files, or just start a new import.'}
          </p>
        </div>
      ) : null}

      {op.state === 'abandoned' ? (
        <Notice>Abandoned: what it wrote was undone and its files removed. Start a new import to try again.</Notice>
      ) : null}

      <div className="actions transfer-current__actions">
        {CANCELLABLE.has(op.state) ? (
          <ConfirmButton
            label="Cancel import"
            confirmLabel="Yes, cancel"
            question={
              op.state === 'executing'
                ? 'Cancel? What it wrote stays, and the site stays paused until you abandon it.'
                : 'Cancel this import? It can then only be abandoned.'
            }
            busy={activity === 'cancelling'}
            onConfirm={runner.cancel}
          />
        ) : null}
        {op.state === 'failed' || op.state === 'cancelled' ? (
          <ConfirmButton
            label="Abandon import"
            confirmLabel="Yes, abandon"
            question={
              op.holdsSite
                ? 'Abandon? Everything it wrote is deleted and the site opens for changes again.'
                : 'Abandon? Its uploaded files are removed.'
            }
            busy={activity === 'abandoning'}
            onConfirm={runner.abandon}
          />
        ) : null}
        {!busy ? (
          <Button variant="ghost" size="small" onClick={runner.close}>
            {op.state === 'complete' || op.state === 'abandoned' ? 'Start another import' : 'Close'}
          </Button>
        ) : null}
      </div>
    </section>
  );
}

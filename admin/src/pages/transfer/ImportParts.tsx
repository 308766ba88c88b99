import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ApiError, messageOf } from '../../api/errors';
import type { ImportState, TransferImport } from '../../api/transferImport';
import { Button } from '../../components/Button';
import { formatBytes } from '../../lib/media';
import { ArchiveError, type UploadProgress } from './importArchive';
import { IMPORT_STATE, IMPORT_STEPS, stepOf } from './importWords';
import { StateBadge } from './TransferParts';
import type { ImportActivity } from './useImportRunner';
import { formatCount, percent, plural, quarterOf } from './words';

export function ImportStateBadge({ state }: { state: ImportState }) {
  return <StateBadge state={state} words={IMPORT_STATE} />;
}

/** "Holds the site": other writes are refused until this import completes or is abandoned. */
export function HoldsSiteBadge() {
  return <span className="pill pill--trashed">Holds the site</span>;
}

/** An import's badges: whether it holds the site, and its state. */
export function ImportBadges({ op }: { op: TransferImport }) {
  return (
    <span className="pill-group">
      {op.holdsSite ? <HoldsSiteBadge /> : null}
      <ImportStateBadge state={op.state} />
    </span>
  );
}

/**
 * A failed request or a refused archive, announced (role=alert): the
 * service's error code and message, the file it is about, and what to do.
 * (Not ErrorMessage: its "correct the highlighted fields" fits forms, and
 * here there is no field to correct.)
 */
export function TransferError({ error }: { error: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [error]);
  let body: ReactNode = null;
  if (error instanceof ArchiveError) {
    body = (
      <>
        <p>
          {error.path ? (
            <>
              <code className="code">{error.path}</code>
              {error.code ? ' was refused with ' : ': '}
            </>
          ) : null}
          {error.code ? (
            <>
              <code className="code">{error.code}</code>:{' '}
            </>
          ) : null}
          {error.message}
        </p>
        {error.advice ? <p className="small">{error.advice}</p> : null}
      </>
    );
  } else if (error instanceof ApiError) {
    body = (
      <>
        <p>
          <code className="code">{error.code}</code>: {messageOf(error)}
        </p>
        {error.issues.length ? (
          <ul>
            {error.issues.map((i) => (
              <li key={`${i.path.join('.')}:${i.code}`}>
                {i.path.join('.')}: {i.message}
              </li>
            ))}
          </ul>
        ) : null}
      </>
    );
  } else if (error) {
    body = <p>{messageOf(error)}</p>;
  }
  return (
    <div ref={ref} role="alert" className={error ? 'alert alert--error' : 'alert-slot'} data-testid="import-error">
      {body}
    </div>
  );
}

/** The archive file input and its button (new import, or the same archive again to continue one). */
export function ArchivePicker({
  label,
  hint,
  submit,
  busy,
  busyLabel,
  onPick,
}: {
  label: string;
  hint: ReactNode;
  submit: string;
  busy: boolean;
  busyLabel: string;
  onPick: (file: File) => void;
}) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  function send(e: FormEvent) {
    e.preventDefault();
    if (!file) {
      setMissing(true);
      return;
    }
    onPick(file);
  }
  return (
    <form className="transfer-pick" onSubmit={send} noValidate>
      <div className={missing ? 'field field--invalid' : 'field'}>
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
        <input
          id={id}
          type="file"
          className="input"
          accept=".tar,application/x-tar"
          aria-describedby={`${id}-hint${missing ? ` ${id}-error` : ''}`}
          aria-invalid={missing || undefined}
          disabled={busy}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setMissing(false);
          }}
        />
        {missing ? (
          <p className="field__error" id={`${id}-error`}>
            <span aria-hidden="true">⚠ </span>
            Choose the package archive (.tar) first.
          </p>
        ) : null}
      </div>
      <div className="actions">
        <Button type="submit" variant="primary" busy={busy} busyLabel={busyLabel}>
          {submit}
        </Button>
        {file ? (
          <span className="small muted">
            {file.name} · {formatBytes(file.size)}
          </span>
        ) : null}
      </div>
    </form>
  );
}

/** Where the import is: Upload → Analyze → Review the plan → Import → Receipt (and where it stopped). */
export function ImportSteps({ op }: { op: TransferImport }) {
  const now = stepOf(op);
  const at = IMPORT_STEPS.findIndex((s) => s.key === now);
  const ended = op.state === 'complete';
  const stopped = op.state === 'failed' || op.state === 'cancelled' || op.state === 'abandoned';
  return (
    <ol className="transfer-steps" aria-label="Steps of the import">
      {IMPORT_STEPS.map((s, i) => {
        const done = i < at || (ended && i === at);
        const here = i === at && !ended;
        const state = done ? 'done' : here ? (stopped ? 'stopped' : 'now') : 'later';
        return (
          <li key={s.key} className={`transfer-step transfer-step--${state}`} aria-current={here ? 'step' : undefined}>
            <span className="transfer-step__n" aria-hidden="true">
              {done ? '✓' : state === 'stopped' ? '✕' : i + 1}
            </span>
            {s.label}
            {done ? <span className="visually-hidden"> (done)</span> : null}
            {state === 'stopped' ? <span className="visually-hidden"> (stopped here)</span> : null}
          </li>
        );
      })}
    </ol>
  );
}

/** Files and bytes uploaded of what the manifest lists. */
export function UploadBar({ progress }: { progress: UploadProgress }) {
  const value = percent(progress.bytesDone, progress.bytesTotal);
  return (
    <div className="index__progress">
      <progress value={value} max={100} aria-label="Upload progress" />
      <span data-testid="upload-progress">
        {value}% · {formatCount(progress.filesDone)} of {formatCount(progress.filesTotal)} files ·{' '}
        {formatBytes(progress.bytesDone)} of {formatBytes(progress.bytesTotal)}
        {progress.skipped > 0 ? ` · ${formatCount(progress.skipped)} already uploaded` : ''}
      </span>
    </div>
  );
}

/** An import's own counters of its files (while this page is not uploading). */
export function filesText(op: TransferImport): string {
  const { listed, uploaded, bytes, bytesUploaded } = op.files;
  if (op.packageDigest === null) return 'manifest.json not uploaded yet';
  return `${formatCount(uploaded)} of ${formatCount(listed)} files · ${formatBytes(bytesUploaded)} of ${formatBytes(bytes)}`;
}

/** Records written of the records the plan counts; complete is 100% (mapped users are counted, not written). */
export function ExecuteBar({ op }: { op: TransferImport }) {
  const { done, total } = op.progress;
  const value = op.state === 'complete' ? 100 : percent(done, total);
  return (
    <div className="index__progress">
      <progress value={value} max={100} aria-label="Import progress" />
      <span data-testid="execute-progress">
        {value}% · {formatCount(done)} of {formatCount(total)} records
      </span>
    </div>
  );
}

/** The service reports no position while it analyzes: a progress bar without a value, and the steps sent. */
export function AnalyzeBar({ steps }: { steps: number }) {
  return (
    <div className="index__progress">
      <progress aria-label="Analysis progress" />
      <span data-testid="analyze-progress">
        Reading every record file of the package{steps > 1 ? ` · step ${formatCount(steps)}` : ''}…
      </span>
    </div>
  );
}

/**
 * What a screen reader hears (a polite live region): each phase as it
 * begins, every quarter of an upload or of the writing, and the end — not
 * every number the bars show.
 */
export function announcement(
  activity: ImportActivity,
  op: TransferImport | null,
  upload: UploadProgress | null,
): string {
  const quarter = (done: number, total: number) => quarterOf(percent(done, total));
  switch (activity) {
    case 'reading':
      return 'Reading the archive…';
    case 'uploading': {
      if (!upload) return 'Uploading the package.';
      const q = quarter(upload.bytesDone, upload.bytesTotal);
      return q === 0 ? 'Uploading the package.' : `Uploading the package: ${q}% sent.`;
    }
    case 'analyzing':
      return 'Analyzing the package.';
    case 'deciding':
      return 'Updating the plan.';
    // The answer can render before the runner leaves its activity: once the
    // import shows the end state, announce that rather than the request.
    case 'cancelling':
      if (op?.state === 'cancelled') break;
      return 'Cancelling the import.';
    case 'abandoning':
      if (op?.state === 'abandoned') break;
      return 'Abandoning the import and undoing what it wrote.';
    case 'executing': {
      if (op?.state !== 'executing') break;
      const q = quarter(op.progress.done, op.progress.total);
      return q === 0 ? 'Import running.' : `Import running: ${q}% of the records written.`;
    }
    default:
      break;
  }
  if (!op) return '';
  switch (op.state) {
    case 'planned':
      return op.plan?.executable
        ? 'The plan is ready: review it, then import.'
        : `The plan is ready, with ${plural(op.plan?.blockers ?? 0, 'blocker')}: the package cannot be imported yet.`;
    case 'complete':
      return 'Import complete. The receipt is shown.';
    case 'failed':
      return `Import failed${op.error ? `: ${op.error.code}, ${op.error.message}` : '.'}`;
    case 'cancelled':
      return 'Import cancelled.';
    case 'abandoned':
      return 'Import abandoned: what it wrote was undone.';
    default:
      return '';
  }
}

import { downloadUrl, type TransferExport } from '../../api/transfer';
import { Button } from '../../components/Button';
import { CopyField } from '../../components/CopyField';
import { formatDateTime } from '../../lib/format';
import { formatBytes } from '../../lib/media';
import { ExportProgress } from './ExportProgress';
import { EXPORT_STATE, formatCount, KIND_TEXT, plural } from './words';

type Totals = NonNullable<TransferExport['totals']>;

export function ExportState({ state }: { state: string }) {
  const s = EXPORT_STATE[state] ?? { label: state, tone: 'plain' };
  return <span className={`pill pill--${s.tone}`}>{s.label}</span>;
}

/** The failure of an export: its stable code and the service's message. */
export function ExportFailure({ op }: { op: TransferExport }) {
  return (
    <div className="alert alert--error">
      <p>
        The export failed
        {op.error ? (
          <>
            {' '}
            with <code className="code">{op.error.code}</code>: {op.error.message}
          </>
        ) : (
          '.'
        )}
      </p>
      <p className="small">Nothing of it can be downloaded. Start a new export once the cause is fixed.</p>
    </div>
  );
}

/** Archive and manifest links: plain GETs with the session cookie, saved under the server's file names. */
export function Downloads({ op, primary = false }: { op: TransferExport; primary?: boolean }) {
  const of = <span className="visually-hidden"> of the export started {formatDateTime(op.createdAt)}</span>;
  return (
    <div className="actions">
      <a
        className={primary ? 'button button--primary' : 'button button--secondary'}
        href={downloadUrl('/admin/transfer/exports/{id}/archive', op.id)}
        download
        data-testid="download-archive"
      >
        Download archive (.tar){of}
      </a>
      <a
        className="button button--ghost"
        href={downloadUrl('/admin/transfer/exports/{id}/manifest', op.id)}
        download
        data-testid="download-manifest"
      >
        Download manifest{of}
      </a>
    </div>
  );
}

const recordsIn = (totals: Totals) => Object.values(totals.records).reduce((a, b) => a + b, 0);

export function TotalsFacts({ totals }: { totals: Totals }) {
  const kinds = Object.entries(totals.records).filter(([, n]) => n > 0);
  return (
    <>
      <dl className="transfer-facts">
        <div>
          <dt>Records</dt>
          <dd>{formatCount(recordsIn(totals))}</dd>
        </div>
        <div>
          <dt>Media</dt>
          <dd>
            {plural(totals.media.count, 'item')} · {formatBytes(totals.media.bytes)}
          </dd>
        </div>
        <div>
          <dt>Package</dt>
          <dd>
            {plural(totals.files.count, 'file')} · {formatBytes(totals.files.bytes)}
          </dd>
        </div>
        {totals.skippedMedia > 0 ? (
          <div className="transfer-facts__warn">
            <dt>Skipped media</dt>
            <dd>{plural(totals.skippedMedia, 'item')} (storage had lost the bytes)</dd>
          </div>
        ) : null}
      </dl>
      {kinds.length ? (
        <details className="transfer-kinds">
          <summary>Records by kind</summary>
          <dl>
            {kinds.map(([kind, n]) => (
              <div key={kind}>
                <dt>{KIND_TEXT[kind] ?? kind}</dt>
                <dd>{formatCount(n)}</dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </>
  );
}

/** One export of the list: what it holds once complete, its progress while it runs, why it failed. */
export function ExportRow({
  op,
  driving,
  canContinue,
  onContinue,
}: {
  op: TransferExport;
  /** This page is sending its steps now. */
  driving: boolean;
  canContinue: boolean;
  onContinue: () => void;
}) {
  const titleId = `export-${op.id}-title`;
  return (
    <li className="transfer-item" aria-labelledby={titleId} data-testid="export-row" data-state={op.state}>
      <div className="transfer-item__head">
        <h3 className="transfer-item__title" id={titleId}>
          Export of {formatDateTime(op.createdAt)}
        </h3>
        <ExportState state={op.state} />
      </div>
      <p className="row__meta">
        <span>{op.options.comments ? 'Comments included' : 'Comments left out'}</span>
        {op.completedAt ? (
          <span>
            {op.state === 'failed' ? 'Ended' : 'Finished'} {formatDateTime(op.completedAt)}
          </span>
        ) : null}
        <span>
          ID <code className="code">{op.id}</code>
        </span>
      </p>
      {op.state === 'running' ? (
        <>
          <ExportProgress op={op} label={`Progress of the export of ${formatDateTime(op.createdAt)}`} />
          {driving ? (
            <p className="small muted">This page is running it.</p>
          ) : (
            <div className="actions">
              <Button size="small" variant="primary" disabled={!canContinue} onClick={onContinue}>
                Continue<span className="visually-hidden"> the export of {formatDateTime(op.createdAt)}</span>
              </Button>
              <span className="small muted">The server also finishes it in the background, a little more slowly.</span>
            </div>
          )}
        </>
      ) : null}
      {op.state === 'failed' ? <ExportFailure op={op} /> : null}
      {op.state === 'complete' && op.totals ? <TotalsFacts totals={op.totals} /> : null}
      {op.state === 'complete' && op.packageDigest ? (
        <>
          <CopyField label="Package digest" value={op.packageDigest} />
          <Downloads op={op} />
        </>
      ) : null}
    </li>
  );
}

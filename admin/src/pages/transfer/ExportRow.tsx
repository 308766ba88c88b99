import { downloadUrl, type TransferExport } from '../../api/transfer';
import { CopyField } from '../../components/CopyField';
import { formatDateTime } from '../../lib/format';
import { formatBytes } from '../../lib/media';
import { ExportProgress } from './ExportProgress';
import { ByKind, ContinueInBackground, EndedWith, Fact, ItemRow, OperationId, StateBadge } from './TransferParts';
import { EXPORT_STATE, formatCount, plural, recordTotal } from './words';

type Totals = NonNullable<TransferExport['totals']>;

export function ExportState({ state }: { state: string }) {
  return <StateBadge state={state} words={EXPORT_STATE} />;
}

/** The failure of an export: its stable code and the service's message. */
export function ExportFailure({ op }: { op: TransferExport }) {
  return (
    <div className="alert alert--error">
      <p>
        The export failed
        <EndedWith error={op.error} />
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

export function TotalsFacts({ totals }: { totals: Totals }) {
  return (
    <>
      <dl className="transfer-facts">
        <Fact term="Records">{formatCount(recordTotal(totals.records))}</Fact>
        <Fact term="Media">
          {plural(totals.media.count, 'item')} · {formatBytes(totals.media.bytes)}
        </Fact>
        <Fact term="Package">
          {plural(totals.files.count, 'file')} · {formatBytes(totals.files.bytes)}
        </Fact>
        {totals.skippedMedia > 0 ? (
          <Fact term="Skipped media" className="transfer-facts__warn">
            {plural(totals.skippedMedia, 'item')} (storage had lost the bytes)
          </Fact>
        ) : null}
      </dl>
      <ByKind counts={totals.records} />
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
  return (
    <ItemRow
      id={`export-${op.id}-title`}
      testId="export-row"
      state={op.state}
      title={<>Export of {formatDateTime(op.createdAt)}</>}
      badges={<ExportState state={op.state} />}
    >
      <p className="row__meta">
        <span>{op.options.comments ? 'Comments included' : 'Comments left out'}</span>
        {op.completedAt ? (
          <span>
            {op.state === 'failed' ? 'Ended' : 'Finished'} {formatDateTime(op.completedAt)}
          </span>
        ) : null}
        <OperationId id={op.id} />
      </p>
      {op.state === 'running' ? (
        <>
          <ExportProgress op={op} label={`Progress of the export of ${formatDateTime(op.createdAt)}`} />
          {driving ? (
            <p className="small muted">This page is running it.</p>
          ) : (
            <ContinueInBackground disabled={!canContinue} onContinue={onContinue}>
              <span className="visually-hidden"> the export of {formatDateTime(op.createdAt)}</span>
            </ContinueInBackground>
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
    </ItemRow>
  );
}

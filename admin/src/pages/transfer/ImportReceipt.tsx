import { Link } from '@tanstack/react-router';
import type { ImportReceipt } from '../../api/transferImport';
import { CopyField } from '../../components/CopyField';
import { formatDateTime } from '../../lib/format';
import { formatBytes } from '../../lib/media';
import { NEXT_STEPS, transformationText } from './importWords';
import { ByKind, Fact, IssueCode } from './TransferParts';
import { formatCount, plural, recordTotal } from './words';

/** The receipt of a complete import: what was written, mapped and left out, its digest, and what to do next. */
export function ReceiptView({ receipt }: { receipt: ImportReceipt }) {
  const written = recordTotal(receipt.records);
  const dropped = recordTotal(receipt.dropped);
  const { principals, source, warnings, transformations } = receipt;
  return (
    <div className="transfer-receipt" data-testid="import-receipt">
      <p className="alert alert--success">
        Import complete: {formatCount(written)} records written, {plural(receipt.media.count, 'media file')} (
        {formatBytes(receipt.media.bytes)}). This site now holds the package’s content
        {` from ${source.url}${source.title ? ` (“${source.title}”)` : ''}`}.
      </p>
      <dl className="transfer-facts">
        <Fact term="Records written" testId="receipt-written">
          {formatCount(written)}
        </Fact>
        <Fact term="Left out" className={dropped > 0 ? 'transfer-facts__warn' : undefined}>
          {dropped > 0 ? `${formatCount(dropped)} (they pointed at records not in the package)` : 'None'}
        </Fact>
        <Fact term="Users" testId="receipt-principals">
          {formatCount(principals.mapped)} attributed · {formatCount(principals.created)} created
        </Fact>
        <Fact term="Media">
          {plural(receipt.media.count, 'file')} · {formatBytes(receipt.media.bytes)}
        </Fact>
        <Fact term="Started">{formatDateTime(receipt.startedAt)}</Fact>
        <Fact term="Completed">{formatDateTime(receipt.completedAt)}</Fact>
      </dl>
      <ByKind counts={receipt.records} label="Records written by kind" />
      <ByKind counts={receipt.dropped} label="Records left out by kind" />
      {transformations.length ? (
        <details className="transfer-kinds">
          <summary>What the import did on the way</summary>
          <ul className="transfer-issues">
            {transformations.map((t) => (
              <li key={`${t.code}:${t.kind ?? ''}`}>{transformationText(t.code, t.count, t.kind)}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {warnings.length ? (
        <div className="alert alert--warn">
          <h4 className="transfer-plan__title">{plural(warnings.length, 'warning')}</h4>
          <ul className="transfer-issues">
            {warnings.map((w, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: warnings have no ID; the list never reorders
              <li key={`${w.code}-${i}`}>
                <IssueCode code={w.code} kind={w.kind} /> {w.message}
                {w.count !== undefined ? ` (${formatCount(w.count)})` : ''}.
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <CopyField
        label="Receipt digest"
        value={receipt.receiptDigest}
        hint="The SHA-256 of this receipt: it names exactly what was imported, from which package and plan."
      />
      <section aria-labelledby="receipt-next">
        <h4 className="transfer-plan__title" id="receipt-next">
          Next steps
        </h4>
        <ul className="transfer-next">
          {principals.created > 0 ? <li>{NEXT_STEPS.signIn}</li> : null}
          <li>
            {NEXT_STEPS.settings} <Link to="/settings">Open Settings</Link>
          </li>
          <li>
            {NEXT_STEPS.tokens} <Link to="/account">Open your account</Link>
          </li>
          <li>
            {NEXT_STEPS.content} <Link to="/media">Open Media</Link>
          </li>
        </ul>
      </section>
    </div>
  );
}

import { useEffect, useRef } from 'react';
import type { CheckFinding, CheckReport, CheckSummary } from '../../api/siteCheck';
import { formatDateTime } from '../../lib/format';
import { countsText, repairText, reportText, STATUS_LABEL } from './words';

/** The report of one run: the overall result first, then every check with its counts and findings. */
export function CheckReportView({ report }: { report: CheckReport }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A new report (check or repair) takes keyboard and screen-reader focus to its result.
  useEffect(() => {
    if (report) heading.current?.focus({ preventScroll: false });
  }, [report]);
  return (
    <div className="stack" data-testid="check-report">
      <div className={`check-result check-result--${report.status}`}>
        <h3 ref={heading} tabIndex={-1} className="check-result__title">
          {report.repair ? 'After repair: ' : 'Result: '}
          <span data-testid="check-report-status">{STATUS_LABEL[report.status]}</span>
        </h3>
        <p>{reportText(report)}</p>
        <p className="check-result__meta">
          {report.repair ? 'Checked and repaired' : 'Checked'} {formatDateTime(report.startedAt)} in{' '}
          {duration(report.durationMs)}.
        </p>
      </div>
      {report.checks.length ? (
        <ul className="site-checks">
          {report.checks.map((c) => (
            <CheckItem key={c.id} check={c} />
          ))}
        </ul>
      ) : (
        <p className="empty">No check ran: none of those chosen is available on this site.</p>
      )}
    </div>
  );
}

function CheckItem({ check }: { check: CheckSummary }) {
  const headingId = `check-${check.id}`;
  // A check whose every problem this run repaired reads as repaired, like the report as a whole.
  const shown = check.problems > 0 && check.repaired === check.problems ? 'repaired' : check.status;
  return (
    <li className="site-check" aria-labelledby={headingId} data-testid={`check-${check.id}`}>
      <div className="site-check__head">
        <h4 id={headingId} className="site-check__title">
          {check.title}
        </h4>
        <span className={`check-status check-status--${shown}`}>{STATUS_LABEL[shown]}</span>
      </div>
      <p className="site-check__counts">
        <code className="code">{check.id}</code> · {countsText(check)}{' '}
        <span className="muted">({duration(check.durationMs)})</span>
      </p>
      {check.note ? <p className="site-check__note">{check.note}</p> : null}
      {check.findings.length ? <FindingsTable check={check} /> : null}
    </li>
  );
}

function FindingsTable({ check }: { check: CheckSummary }) {
  return (
    <div className="table-wrap">
      <table className="table table--findings">
        <caption className="visually-hidden">Findings of {check.title}</caption>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Collection</th>
            <th scope="col">Subject</th>
            <th scope="col">Message</th>
            <th scope="col">Repair</th>
          </tr>
        </thead>
        <tbody>
          {check.findings.map((f, i) => (
            // Findings have no id of their own; their order within one report is stable.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <FindingRow key={i} finding={f} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FindingRow({ finding: f }: { finding: CheckFinding }) {
  return (
    <tr>
      <td className="finding-cell" data-label="Code">
        <code className="code finding-value">{f.code}</code>
      </td>
      <td className="finding-cell" data-label="Collection">
        {f.collection ? <code className="code finding-value">{f.collection}</code> : '—'}
      </td>
      <td className="finding-cell" data-label="Subject">
        {f.subject ? <code className="code finding-value">{f.subject}</code> : '—'}
      </td>
      <td className="finding-cell" data-label="Message">
        {f.message}
      </td>
      <td className="finding-cell" data-label="Repair">
        <span className={`finding-repair finding-repair--${f.repaired ? 'done' : f.repairable ? 'yes' : 'no'}`}>
          {repairText(f)}
        </span>
      </td>
    </tr>
  );
}

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

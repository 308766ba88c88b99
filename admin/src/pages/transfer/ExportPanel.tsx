import { type FormEvent, useState } from 'react';
import { listExports, transferKeys } from '../../api/transfer';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { formatBytes } from '../../lib/media';
import { announcement, ExportProgress } from './ExportProgress';
import { Downloads, ExportFailure, ExportRow } from './ExportRow';
import { MayLeave, PagedList, useCursorPages } from './TransferParts';
import type { ExportRunner } from './useExportRunner';
import { formatCount, plural, recordTotal } from './words';

/** Start an export and follow the one this page runs. */
export function ExportPanel({ runner }: { runner: ExportRunner }) {
  const [comments, setComments] = useState(true);
  const op = runner.current;
  const busy = runner.starting || runner.running;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!busy) runner.start(comments);
  }

  return (
    <Section
      id="transfer-export"
      title="Export this site"
      description="A site package holds everything needed to set this site up elsewhere: content in every status (trash included), revisions, the schema, users (names, e-mail addresses and roles — never passwords, passkeys or tokens), media files, menus, settings and, if you choose, comments."
    >
      <form className="stack" onSubmit={submit}>
        <label className="check">
          <input type="checkbox" checked={comments} onChange={(e) => setComments(e.target.checked)} disabled={busy} />
          <span>
            Include comments
            <span className="check__hint">
              With their authors’ names, e-mail addresses, IP addresses and browsers, as recorded.
            </span>
          </span>
        </label>
        <div className="actions">
          <Button type="submit" variant="primary" busy={busy} busyLabel="Exporting…">
            Start export
          </Button>
          <span className="small muted">
            It runs in steps of about a second. Edits made meanwhile may be partly in the package: export a quiet site.
          </span>
        </div>
      </form>

      <p className="sr-status" role="status" aria-live="polite" data-testid="export-announcement">
        {announcement(op, runner.starting)}
      </p>
      <ErrorMessage error={runner.error} />
      {op ? (
        <div className="transfer-current" data-testid="current-export" data-state={op.state}>
          <h3 className="transfer-item__title">Export of {formatDateTime(op.createdAt)}</h3>
          {op.state === 'running' ? (
            <>
              <ExportProgress op={op} label="Export progress" />
              <MayLeave what="export" />
              {runner.running ? null : (
                <div className="actions">
                  <Button size="small" variant="primary" onClick={() => runner.drive(op)}>
                    Continue
                  </Button>
                </div>
              )}
            </>
          ) : null}
          {op.state === 'failed' ? <ExportFailure op={op} /> : null}
          {op.state === 'complete' ? (
            <>
              <Notice tone="success">
                Export complete
                {op.totals
                  ? `: ${formatCount(recordTotal(op.totals.records))} records, ${plural(op.totals.media.count, 'media file')}, ${formatBytes(op.totals.files.bytes)} in all.`
                  : '.'}
              </Notice>
              <Downloads op={op} primary />
            </>
          ) : null}
        </div>
      ) : null}
    </Section>
  );
}

/** Earlier exports, newest first, with "Load more"; running ones can be continued from here. */
export function ExportList({ runner }: { runner: ExportRunner }) {
  const busy = runner.starting || runner.running;
  const driven = runner.running ? runner.current?.id : undefined;
  const pages = useCursorPages(transferKeys.exports, listExports, {
    // While an export runs that this page is not driving, the server's worker moves it on: follow it.
    refetchInterval: (loaded) => (loaded.some((i) => i.state === 'running' && i.id !== driven) ? 2_000 : false),
  });
  return (
    <Section
      id="transfer-exports"
      title="Exports"
      description="Newest first. A complete export stays downloadable: the archive holds manifest.json and every file it lists. The package digest (the SHA-256 of manifest.json) names a package exactly, so a copy can be checked against it."
    >
      <PagedList
        pages={pages}
        label="Exports"
        empty="No exports yet."
        row={(item) => (
          <ExportRow
            key={item.id}
            op={item}
            driving={item.id === driven}
            canContinue={!busy}
            onContinue={() => runner.drive(item)}
          />
        )}
      />
    </Section>
  );
}

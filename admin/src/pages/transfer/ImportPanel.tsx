import { useEffect } from 'react';
import { Button } from '../../components/Button';
import { Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { HoldNotice, ImportFlow } from './ImportFlow';
import { useImports } from './ImportList';
import { ArchivePicker, announcement, TransferError } from './ImportParts';
import { loadedItems } from './TransferParts';
import type { ImportRunner } from './useImportRunner';

/**
 * Import a site package: pick the archive an export downloaded, and the page
 * uploads it, analyzes it, shows the plan with its decisions, executes it
 * once confirmed and shows the receipt (ImportFlow). The runner lives on the
 * page (Transfer.tsx), so switching tabs does not stop an upload.
 */
export function ImportPanel({ runner }: { runner: ImportRunner }) {
  const list = useImports(runner);
  const items = loadedItems(list);
  const current = runner.current;
  const holder = items.find((i) => i.holdsSite);
  // The list refreshes while the worker moves an import on: show its fresher copy here too.
  const fresher = current ? items.find((i) => i.id === current.id && i.updatedAt > current.updatedAt) : undefined;
  useEffect(() => {
    if (fresher) runner.refresh(fresher);
  }, [fresher, runner.refresh]);

  return (
    <Section
      id="transfer-import"
      title="Import a site package"
      description="Set this site up from a package another installation exported: its content in every status, revisions, schema, users, media files, menus, settings and comments. A package imports into an empty site — one without collections, media, menus or other content; its users, settings and allowed domains may exist. Nothing is written until you have reviewed the plan and confirmed."
    >
      <p className="sr-status" role="status" aria-live="polite" data-testid="import-announcement">
        {announcement(runner.activity, current, runner.upload)}
      </p>
      {holder && holder.id !== current?.id ? (
        <div className="transfer-hold-other">
          <HoldNotice op={holder} />
          <div className="actions">
            <Button size="small" variant="primary" disabled={runner.busy} onClick={() => runner.open(holder)}>
              Open the import that holds the site
              <span className="visually-hidden"> (started {formatDateTime(holder.createdAt)})</span>
            </Button>
          </div>
        </div>
      ) : null}
      {current ? (
        <ImportFlow op={current} runner={runner} />
      ) : (
        <>
          <ArchivePicker
            label="Package archive (.tar)"
            hint={
              <>
                The <strong>Download archive (.tar)</strong> of an export (Site transfer → Export on the old site), or{' '}
                <code className="code">cms transfer export</code>. It is read in place, never loaded whole: the
                package’s files are uploaded one by one and checked against its manifest.
              </>
            }
            submit="Upload and analyze"
            busy={runner.busy}
            busyLabel="Reading…"
            onPick={runner.start}
          />
          <TransferError error={runner.error} />
        </>
      )}
    </Section>
  );
}

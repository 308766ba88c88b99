import { Link } from '@tanstack/react-router';
import type { Me } from '../../api/auth';
import { Page } from '../../components/Page';
import { ApprovalsPanel, useApprovals } from './Approvals';
import { ExportList, ExportPanel } from './ExportPanel';
import { TRANSFER_TABS, type TransferSearch } from './tabs';
import { useExportRunner } from './useExportRunner';

/**
 * Site transfer (Admins): export the site as a package, and decide the
 * requests MCP clients make to do it. One tab per part (tabs.ts); the export
 * runner lives here so switching tabs does not stop an export the page drives.
 */
export function TransferPage({ me, search }: { me: Me; search: TransferSearch }) {
  const tab = search.tab ?? 'export';
  const runner = useExportRunner();
  const approvals = useApprovals();
  const pending = approvals.data?.pages.flatMap((p) => p.items).filter((a) => a.state === 'pending').length ?? 0;

  return (
    <Page
      title="Site transfer"
      description="Move this whole site to another installation: export it as a site package, and decide the requests AI tools make to export it."
    >
      <nav className="tabs" aria-label="Site transfer">
        {TRANSFER_TABS.map((t) => (
          <Link
            key={t.value}
            to="/transfer"
            search={{ tab: t.value === 'export' ? undefined : t.value }}
            className={t.value === tab ? 'tab tab--active' : 'tab'}
            aria-current={t.value === tab ? 'page' : undefined}
          >
            {t.label}
            {t.value === 'approvals' && pending > 0 ? (
              <span className="tab__count" data-testid="pending-count">
                {pending}
                <span className="visually-hidden"> pending</span>
              </span>
            ) : null}
          </Link>
        ))}
      </nav>
      {tab === 'export' ? (
        <>
          <ExportPanel runner={runner} />
          <ExportList runner={runner} />
        </>
      ) : null}
      {tab === 'approvals' ? <ApprovalsPanel me={me} /> : null}
    </Page>
  );
}

import { Link } from '@tanstack/react-router';
import type { Me } from '../../api/auth';
import { Page } from '../../components/Page';
import { ApprovalsPanel, useApprovals } from './Approvals';
import { ExportList, ExportPanel } from './ExportPanel';
import { ImportList } from './ImportList';
import { ImportPanel } from './ImportPanel';
import { loadedItems } from './TransferParts';
import { TRANSFER_TABS, type TransferSearch } from './tabs';
import { useExportRunner } from './useExportRunner';
import { useImportRunner } from './useImportRunner';

/**
 * Site transfer (Admins): export the site as a package, import a package
 * into this site, and decide the requests MCP clients make to do either. One
 * tab per part (tabs.ts); the export and import runners live here so
 * switching tabs does not stop an export or an upload the page drives.
 */
export function TransferPage({ me, search }: { me: Me; search: TransferSearch }) {
  const tab = search.tab ?? 'export';
  const runner = useExportRunner();
  const importer = useImportRunner();
  const approvals = useApprovals();
  const pending = loadedItems(approvals).filter((a) => a.state === 'pending').length;

  return (
    <Page
      title="Site transfer"
      description="Move a whole site between installations: export this one as a site package, import a package into this site while it is still empty, and decide the requests AI tools make to do either."
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
      {tab === 'import' ? (
        <>
          <ImportPanel runner={importer} />
          <ImportList runner={importer} />
        </>
      ) : null}
      {tab === 'approvals' ? <ApprovalsPanel me={me} /> : null}
    </Page>
  );
}

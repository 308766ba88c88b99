/**
 * The parts of the site transfer page, one tab each, chosen by `?tab=` so a
 * part can be linked to (`/transfer?tab=import`, `?tab=approvals`). Kept
 * apart from the page so the router can read it without loading the page's
 * code.
 */
export const TRANSFER_TABS = [
  { value: 'export', label: 'Export' },
  { value: 'import', label: 'Import' },
  { value: 'approvals', label: 'Approvals' },
] as const;

export type TransferTab = (typeof TRANSFER_TABS)[number]['value'];

export interface TransferSearch {
  tab?: TransferTab;
}

export function parseTransferSearch(search: Record<string, unknown>): TransferSearch {
  return { tab: TRANSFER_TABS.find((t) => t.value === search.tab && t.value !== 'export')?.value };
}

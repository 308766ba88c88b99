import type { ComponentType } from 'react';

/**
 * Extension points of the entry list toolbar, filled by domains that are
 * built separately:
 * - `search`: the site search box (full-text search over the collection);
 * - `terms`: taxonomy term filters.
 * Each receives the collection and locale, and reports its filter through
 * `onFilter` (merged into the list query as extra parameters). While a slot
 * is empty the toolbar simply leaves it out.
 */
export interface ListSlotProps {
  collection: string;
  locale: string;
  onFilter: (params: Record<string, string | undefined>) => void;
}

export const listToolbarSlots: {
  search?: ComponentType<ListSlotProps>;
  terms?: ComponentType<ListSlotProps>;
} = {};

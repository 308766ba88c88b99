/**
 * The admin navigation. Later sections add their entries here (and their
 * routes in router.tsx) — content collections, media, taxonomies, menus,
 * schema, settings — so nothing links to a page that does not exist yet.
 */
export interface NavItem {
  to: '/' | '/account' | '/users' | '/allowed-domains';
  label: string;
  /** Shown to Admins only (the routes also refuse others). */
  adminOnly?: boolean;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const NAV_GROUPS: NavGroup[] = [
  {
    label: 'Site',
    items: [
      { to: '/', label: 'Dashboard' },
      // Content: one entry per collection (issue "content").
      // Media library (issue "media").
    ],
  },
  {
    label: 'Administration',
    items: [
      // Schema: collections and fields (issue "schema").
      { to: '/users', label: 'Users', adminOnly: true },
      { to: '/allowed-domains', label: 'Allowed domains', adminOnly: true },
    ],
  },
  {
    label: 'You',
    items: [{ to: '/account', label: 'Account' }],
  },
];

/**
 * The admin navigation. Later sections add their entries here (and their
 * routes in router.tsx) — content collections, media, taxonomies, menus,
 * schema, settings — so nothing links to a page that does not exist yet.
 */
export interface NavItem {
  to:
    | '/'
    | '/account'
    | '/media'
    | '/search'
    | '/users'
    | '/allowed-domains'
    | '/comments'
    | '/redirects'
    | '/not-found'
    | '/schema'
    | '/media-usage'
    | '/site-health'
    | '/taxonomies'
    | '/menus'
    | '/sections'
    | '/widgets'
    | '/settings'
    | '/transfer'
    | '/import/blogplatform';
  label: string;
  /** Shown to Admins only (the routes also refuse others). */
  adminOnly?: boolean;
  /** Shown from this role level on (the routes also refuse others). */
  minRole?: number;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/**
 * The collections (with entry counts, in the configured sidebar order) are
 * listed after the "Site" group by components/CollectionsNav.tsx, from the
 * content model the service reports.
 */
export const CONTENT_AFTER_GROUP = 'Site';

export const NAV_GROUPS: NavGroup[] = [
  {
    label: 'Site',
    items: [
      { to: '/', label: 'Dashboard' },
      { to: '/search', label: 'Search' },
      { to: '/media', label: 'Media' },
      { to: '/comments', label: 'Comments', minRole: 40 },
      { to: '/redirects', label: 'Redirects', minRole: 40 },
      { to: '/not-found', label: '404 log', minRole: 40 },
    ],
  },
  {
    label: 'Structure',
    items: [
      { to: '/taxonomies', label: 'Taxonomies', minRole: 40 },
      { to: '/menus', label: 'Menus', minRole: 40 },
      { to: '/sections', label: 'Sections', minRole: 40 },
      { to: '/widgets', label: 'Widget areas', minRole: 40 },
    ],
  },
  {
    label: 'Administration',
    items: [
      { to: '/schema', label: 'Schema', adminOnly: true },
      { to: '/media-usage', label: 'Media usage', adminOnly: true },
      { to: '/site-health', label: 'Site health', adminOnly: true },
      { to: '/settings', label: 'Settings', minRole: 40 },
      { to: '/users', label: 'Users', adminOnly: true },
      { to: '/allowed-domains', label: 'Allowed domains', adminOnly: true },
      { to: '/import/blogplatform', label: 'Import', adminOnly: true },
      { to: '/transfer', label: 'Site transfer', adminOnly: true },
    ],
  },
  {
    label: 'You',
    items: [{ to: '/account', label: 'Account' }],
  },
];

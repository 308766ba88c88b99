/** Plain words for what the site transfer API reports (docs/transfer.md). */
import type { ApprovalState } from '../../api/transfer';

export const EXPORT_STATE: Record<string, { label: string; tone: string }> = {
  running: { label: 'Running', tone: 'draft' },
  complete: { label: 'Complete', tone: 'published' },
  failed: { label: 'Failed', tone: 'trashed' },
};

export const APPROVAL_STATE: Record<ApprovalState, { label: string; tone: string; text: string }> = {
  pending: { label: 'Pending', tone: 'warn', text: 'Waiting for an administrator to approve or deny it.' },
  approved: {
    label: 'Approved',
    tone: 'published',
    text: 'Approved: the client may start the operation once, before the request expires.',
  },
  denied: { label: 'Denied', tone: 'trashed', text: 'Denied: the client cannot use this request.' },
  used: { label: 'Used', tone: 'plain', text: 'Used: the client started the operation.' },
  expired: { label: 'Expired', tone: 'plain', text: 'Expired without being used; the client may ask again.' },
};

export const ACTION_TEXT: Record<string, { title: string; verb: string }> = {
  export: { title: 'Export the whole site', verb: 'export the whole site' },
  import: { title: 'Import a site package', verb: 'import a site package into this site' },
};

/** Record kinds of a package (manifest order) in words; unknown kinds show as they are. */
export const KIND_TEXT: Record<string, string> = {
  settings: 'Settings',
  users: 'Users',
  allowedDomains: 'Allowed domains',
  collections: 'Collections',
  fields: 'Fields',
  blockTypes: 'Block types',
  blockTypeVersions: 'Block type versions',
  relations: 'Relations',
  searchSettings: 'Search settings',
  taxonomies: 'Taxonomies',
  taxonomyDefs: 'Taxonomy definitions',
  terms: 'Terms',
  mediaFolders: 'Media folders',
  media: 'Media items',
  bylines: 'Bylines',
  entries: 'Entries',
  revisions: 'Revisions',
  links: 'Reference links',
  entryBylines: 'Entry bylines',
  entrySchedules: 'Schedules',
  contentTerms: 'Term assignments',
  menus: 'Menus',
  menuItems: 'Menu items',
  sections: 'Sections',
  widgetAreas: 'Widget areas',
  widgets: 'Widgets',
  seo: 'SEO records',
  redirects: 'Redirects',
  comments: 'Comments',
};

/** A record kind in words (`KIND_TEXT`), or as it is. */
export const kindText = (kind: string) => KIND_TEXT[kind] ?? kind;

/** All records of counts by kind. */
export const recordTotal = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Whole percent of `done` in `total`, at most 100 (nothing to do: 0). */
export const percent = (done: number, total: number) =>
  total > 0 ? Math.min(100, Math.floor((done * 100) / total)) : 0;

/** The quarter a percentage has reached (0, 25, 50, 75, 100): what a screen reader is told of progress. */
export const quarterOf = (percentage: number) => Math.floor(percentage / 25) * 25;

const count = new Intl.NumberFormat();
export const formatCount = (n: number) => count.format(n);

export const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "in 12 minutes", "in less than a minute", "3 minutes ago". */
export function relativeTime(iso: string, now: number): string {
  const minutes = Math.round((new Date(iso).getTime() - now) / 60_000);
  if (minutes === 0) return new Date(iso).getTime() >= now ? 'in less than a minute' : 'just now';
  return minutes > 0 ? `in ${plural(minutes, 'minute')}` : `${plural(-minutes, 'minute')} ago`;
}

/**
 * The checks of the consistency checker, in the order they run (derived state last: it is
 * rebuilt from the rest). Here rather than in the service so the command line can name them
 * without loading server code.
 */
export const CHECK_IDS = ['revisions', 'orphans', 'term-counts', 'search', 'media-usage', 'storage'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

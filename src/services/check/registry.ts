import { mediaUsageCheck } from './media-usage.js';
import type { Check } from './model.js';
import { orphansCheck } from './orphans.js';
import { revisionsCheck } from './revisions.js';
import { searchCheck } from './search.js';
import { storageCheck } from './storage.js';
import { termCountsCheck } from './term-counts.js';

/** Every check, in the order `cms check` runs them (see CHECK_IDS). */
export const CHECKS: readonly Check[] = [
  revisionsCheck,
  orphansCheck,
  termCountsCheck,
  searchCheck,
  mediaUsageCheck,
  storageCheck,
];

/** The consistency checker (Administrators, `site:check`) over the typed client. */
import { api, type Schemas, unwrap } from './client';

export type CheckReport = Schemas['CheckReport'];
export type CheckSummary = Schemas['CheckSummary'];
export type CheckFinding = Schemas['CheckFinding'];
export type CheckId = CheckSummary['id'];

/** Every check, in the order the service runs them (src/core/checks.ts). */
export const CHECK_IDS: readonly CheckId[] = [
  'revisions',
  'orphans',
  'term-counts',
  'search',
  'media-usage',
  'storage',
];

/** Reads only. No ids (or all of them) runs every check. */
export const checkSite = (checks: readonly CheckId[]) =>
  unwrap(
    api.GET('/admin/check', {
      params: { query: { checks: checks.length && checks.length < CHECK_IDS.length ? checks.join(',') : undefined } },
    }),
  );

/** Checks, then repairs what can be derived from the content; answers the report after repair. */
export const repairSite = (checks: readonly CheckId[]) =>
  unwrap(
    api.POST('/admin/check/repair', {
      body: checks.length && checks.length < CHECK_IDS.length ? { checks: [...checks] } : {},
    }),
  );

import { checkSite, repairSite } from '../../operations/check.js';
import { type Api, route } from '../op.js';

/** The consistency checker (docs/operations.md "Consistency checker"; operations: operations/check.ts). */
export function checkRoutes(api: Api): void {
  const tags = ['Site health'];
  const who = 'Administrators (`site:check`); Bearer tokens also need the `admin` scope.';
  route(api, {
    operation: checkSite,
    method: 'get',
    path: '/admin/check',
    summary:
      'Verify derived and referential state: revision pointers, orphaned rows, term counts, search index, media usage, stored files',
    description: `Reads only. A 200 answer with \`status: problems\` lists what is wrong per check. ${who}`,
    tags,
  });
  route(api, {
    operation: repairSite,
    method: 'post',
    path: '/admin/check/repair',
    summary: 'Check, and repair what can be derived from the content (in bounded steps)',
    description: `Rebuilds counts, indexes and usage from the content and removes orphaned rows and old unowned files; never changes content. What cannot be derived (a missing file) stays reported. ${who}`,
    tags,
  });
}

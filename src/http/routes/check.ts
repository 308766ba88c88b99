import { CheckQuery, CheckReportSchema, RepairCheckBody } from '../../schemas/check.js';
import { type Api, op } from '../op.js';

/** The consistency checker (docs/operations.md "Consistency checker"). Rules live in the service. */
export function checkRoutes(api: Api): void {
  const tags = ['Site health'];
  const who = 'Administrators (`site:check`); Bearer tokens also need the `admin` scope.';
  op(
    api,
    {
      method: 'get',
      path: '/admin/check',
      operationId: 'checkSite',
      summary:
        'Verify derived and referential state: revision pointers, orphaned rows, term counts, search index, media usage, stored files',
      description: `Reads only. A 200 answer with \`status: problems\` lists what is wrong per check. ${who}`,
      tags,
      query: CheckQuery,
      response: CheckReportSchema,
    },
    async ({ actor, services, query }) => services.check.run(actor, { checks: query.checks }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/check/repair',
      operationId: 'repairSite',
      summary: 'Check, and repair what can be derived from the content (in bounded steps)',
      description: `Rebuilds counts, indexes and usage from the content and removes orphaned rows and old unowned files; never changes content. What cannot be derived (a missing file) stays reported. ${who}`,
      tags,
      body: RepairCheckBody,
      response: CheckReportSchema,
    },
    async ({ actor, services, body }) => services.check.run(actor, { checks: body.checks, repair: true }),
  );
}

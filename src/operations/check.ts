import { CheckQuery, CheckReportSchema, RepairCheckBody } from '../schemas/check.js';
import { operation } from './operation.js';

/**
 * The consistency checker (docs/operations.md "Consistency checker"; MCP check_site, repair_site).
 * Administrators (`site:check`, checked in the service); tokens also need the `admin` scope. A
 * repair writes derived state, so it meets the holds like any other write.
 */
const SCOPE = 'admin';

export const checkSite = operation({
  id: 'checkSite',
  query: CheckQuery,
  output: CheckReportSchema,
  writes: false,
  scope: SCOPE,
  run: ({ services, actor }, { query }) => services.check.run(actor, { checks: query.checks }),
});

export const repairSite = operation({
  id: 'repairSite',
  body: RepairCheckBody,
  output: CheckReportSchema,
  writes: true,
  scope: SCOPE,
  run: ({ services, actor }, { body }) => services.check.run(actor, { checks: body.checks, repair: true }),
});

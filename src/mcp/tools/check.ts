import { z } from 'zod';
import { CheckReportSchema } from '../../schemas/check.js';
import { CHECK_IDS } from '../../services/check/model.js';
import { READ, type ToolDef, tool, WRITE } from '../registry.js';

const Input = z.object({
  checks: z
    .array(z.enum(CHECK_IDS))
    .max(CHECK_IDS.length)
    .optional()
    .describe(`Only these checks (default: all): ${CHECK_IDS.join(', ')}`),
});

/**
 * The consistency checker for operators' agents: `check_site` reads only; `repair_site` writes
 * derived state, so the site's write gates refuse it like any other writing tool (its name does
 * not start with `site_`, the prefix the site import leaves open).
 */
export const checkTools: ToolDef[] = [
  tool({
    name: 'check_site',
    title: 'Check Site Consistency',
    description:
      'Verify derived and referential state (revision pointers, orphaned rows, term counts, search index, media usage, stored files) and report what is wrong per check. Reads only.',
    scope: 'admin',
    annotations: READ,
    input: Input,
    output: CheckReportSchema,
    run: ({ services, actor }, a) => services.check.run(actor, { checks: a.checks }),
  }),
  tool({
    name: 'repair_site',
    title: 'Repair Site Consistency',
    description:
      'Run the checks and repair what can be derived from the content: rebuild counts, indexes and usage, remove orphaned rows and old unowned files. Never changes content; what cannot be derived stays reported.',
    scope: 'admin',
    annotations: { ...WRITE, idempotentHint: true },
    input: Input,
    output: CheckReportSchema,
    run: ({ services, actor }, a) => services.check.run(actor, { checks: a.checks, repair: true }),
  }),
];

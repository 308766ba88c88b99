import { z } from 'zod';
import { checkSite, repairSite } from '../../operations/check.js';
import { CHECK_IDS } from '../../services/check/model.js';
import { READ, type ToolDef, toolOf, WRITE } from '../registry.js';

const Input = z.object({
  checks: z
    .array(z.enum(CHECK_IDS))
    .max(CHECK_IDS.length)
    .optional()
    .describe(`Only these checks (default: all): ${CHECK_IDS.join(', ')}`),
});

/**
 * The consistency checker for operators' agents: `check_site` reads only; `repair_site` writes
 * derived state, so the holds refuse it like any other write (it stays open during none).
 */
export const checkTools: ToolDef[] = [
  toolOf(checkSite, {
    name: 'check_site',
    title: 'Check Site Consistency',
    description:
      'Verify derived and referential state (revision pointers, orphaned rows, term counts, search index, media usage, stored files) and report what is wrong per check. Reads only.',
    annotations: READ,
    input: Input,
    // The REST query names the checks comma-separated; no checks (or none listed) means all of them.
    toArgs: (a) => ({ query: { checks: a.checks?.join(',') } }),
  }),
  toolOf(repairSite, {
    name: 'repair_site',
    title: 'Repair Site Consistency',
    description:
      'Run the checks and repair what can be derived from the content: rebuild counts, indexes and usage, remove orphaned rows and old unowned files. Never changes content; what cannot be derived stays reported.',
    annotations: { ...WRITE, idempotentHint: true },
    input: Input,
    toArgs: (a) => ({ body: a }),
  }),
];

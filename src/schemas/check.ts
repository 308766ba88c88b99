import { z } from '@hono/zod-openapi';
import { CHECK_IDS, type CheckId } from '../services/check/model.js';

/** Shapes of the consistency checker (GET /admin/check, POST /admin/check/repair). */

const CheckIdSchema = z.enum(CHECK_IDS).openapi({ description: 'A check: one of the ids listed in the description' });

const checksDescription = `Only these checks, comma-separated (default: all): ${CHECK_IDS.join(', ')}`;

export const CheckQuery = z.object({
  checks: z
    .string()
    .max(200)
    .optional()
    .transform((s, tx) => {
      if (s === undefined || s.trim() === '') return undefined;
      const ids = s.split(',').map((x) => x.trim());
      const bad = ids.filter((id) => !(CHECK_IDS as readonly string[]).includes(id));
      if (bad.length) {
        tx.addIssue({ code: 'custom', message: `unknown checks: ${bad.join(', ')} (known: ${CHECK_IDS.join(', ')})` });
        return z.NEVER;
      }
      return ids as CheckId[];
    })
    .openapi({
      param: { name: 'checks', in: 'query' },
      description: checksDescription,
      example: 'revisions,term-counts',
    }),
});

export const RepairCheckBody = z
  .object({
    checks: z.array(CheckIdSchema).max(CHECK_IDS.length).optional().openapi({ description: checksDescription }),
  })
  .strict();

const FindingSchema = z
  .object({
    code: z
      .string()
      .openapi({ description: 'What is wrong, e.g. ORPHANED_ROWS, TERM_COUNT_WRONG, DANGLING_DRAFT_REVISION' }),
    message: z.string(),
    collection: z.string().nullable().openapi({ description: 'Collection slug, when the finding belongs to one' }),
    subject: z.string().nullable().openapi({ description: 'The row or object: entry ID, term group, storage key …' }),
    repairable: z.boolean().openapi({ description: 'Whether a repair can derive the fix from the rest of the data' }),
    repaired: z.boolean().openapi({ description: 'Set when this run repaired it' }),
  })
  .openapi('CheckFinding');

const CheckSummarySchema = z
  .object({
    id: CheckIdSchema,
    title: z.string(),
    status: z
      .enum(['ok', 'problems', 'skipped'])
      .openapi({ description: '`skipped`: the check did not apply (see `note`)' }),
    problems: z.number().int().openapi({ description: 'Every problem found (repaired or not)' }),
    repaired: z.number().int(),
    note: z.string().nullable(),
    findings: z.array(FindingSchema).openapi({ description: 'The first 100 findings in full; the counts cover all' }),
    durationMs: z.number().int(),
  })
  .openapi('CheckSummary');

export const CheckReportSchema = z
  .object({
    status: z.enum(['ok', 'repaired', 'problems']).openapi({
      description: '`ok`: nothing found; `repaired`: every problem found was repaired; `problems`: some remain',
    }),
    repair: z.boolean(),
    startedAt: z.string(),
    durationMs: z.number().int(),
    checks: z.array(CheckSummarySchema),
  })
  .openapi('CheckReport');

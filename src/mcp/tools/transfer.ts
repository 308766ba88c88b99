import { z } from 'zod';
import { DRIVES_SITE_IMPORT } from '../../services/holds.js';
import { DecisionsInput } from '../../services/transfer/import-plan.js';
import { DESTRUCTIVE, READ, type ToolDef, tool, WRITE } from '../registry.js';

const OperationId = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('The operation ID a start call returned');
const ApprovalId = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  .optional()
  .describe('The approvalId of an approved request (after TRANSFER_APPROVAL_REQUIRED), with the same arguments');

const Digest = z.string().max(100);

/** At most 50 principals in a tool's answer (spec 2, site transfer rule 3); the full count stays in `total`. */
function boundedPlan<T extends { principals: { items: unknown[]; total: number } }>(plan: T): T {
  return { ...plan, principals: { items: plan.principals.items.slice(0, 50), total: plan.principals.total } };
}

/**
 * Site transfer tools (spec 2, "Site transfer tools"): administrators only,
 * summaries only — never package bytes, record contents, e-mail addresses or
 * download URLs (downloads and uploads go through REST or the CLI). Access is
 * checked by the transfer service: the role first, then the scope or the
 * approval that started the operation.
 */
export const transferTools: ToolDef[] = [
  tool({
    name: 'site_transfer_capabilities',
    openDuring: DRIVES_SITE_IMPORT,
    title: 'Get Site Transfer Capabilities',
    description:
      'What this site can export and import: package format and version, limits, export options, storage kind.',
    scope: null,
    annotations: READ,
    input: z.object({}),
    run: ({ services, actor }) => services.transfer.capabilities(actor),
  }),
  tool({
    name: 'site_export_start',
    openDuring: DRIVES_SITE_IMPORT,
    title: 'Start Site Export',
    description:
      'Start an export of the whole site (records and media) as a site package. Without the transfer:export scope the call fails with TRANSFER_APPROVAL_REQUIRED and opens a request an administrator approves in the admin; call again with the same arguments and its approvalId. Then call site_export_status until nextRequestInMs is null.',
    scope: null,
    annotations: WRITE,
    input: z.object({
      comments: z.boolean().optional().describe('Include comments (default true)'),
      approvalId: ApprovalId,
    }),
    run: ({ services, actor }, a) =>
      services.transfer.exports.startFromTool(actor, { comments: a.comments ?? true }, a.approvalId),
  }),
  tool({
    name: 'site_export_status',
    openDuring: DRIVES_SITE_IMPORT,
    title: 'Get Site Export Status',
    description:
      'Run one bounded step of an export (unless advance is false) and report it; call again after nextRequestInMs until it is null. A complete export reports totals: records by kind, media count and bytes, package files and bytes.',
    scope: null,
    annotations: { ...WRITE, idempotentHint: true },
    input: z.object({
      id: OperationId,
      advance: z.boolean().optional().describe('false: report without running a step (default true)'),
    }),
    run: ({ services, actor }, a) => services.transfer.exports.statusFromTool(actor, a.id, a.advance !== false),
  }),
  tool({
    name: 'site_import_analyze',
    openDuring: DRIVES_SITE_IMPORT,
    title: 'Analyze Site Import',
    description:
      'Run one bounded analysis step of an uploaded site package (the package is uploaded with the CLI or REST); repeat until nextRequestInMs is null. The answer then has the plan: packageDigest, planDigest, executable, counts, sizes, principals (package users with their suggested and mapped user of this site), decisions, transformations, warnings and blockers. Send decisions (principals: package user ID → user ID of this site, or null to create the user; title and tagline: "package" or "target") to change the plan; each change gives a new planDigest.',
    scope: null,
    annotations: WRITE,
    input: z.object({ id: OperationId, decisions: DecisionsInput.optional() }),
    run: async ({ services, actor }, a) => {
      const op = await services.transfer.imports.analyze(actor, a.id, a.decisions);
      const plan = op.state === 'planned' ? boundedPlan(await services.transfer.imports.plan(actor, a.id)) : null;
      return { operation: op, nextRequestInMs: op.nextRequestInMs, plan };
    },
  }),
  tool({
    name: 'site_import_start',
    openDuring: DRIVES_SITE_IMPORT,
    title: 'Start Site Import',
    description:
      'Execute a planned import: give the packageDigest and planDigest of the latest plan (it must have no blockers). From then on the import writes to the site and every other write waits until it completes or an administrator abandons it. Without the transfer:execute scope the call fails with TRANSFER_APPROVAL_REQUIRED and opens a request an administrator approves in the admin; call again with the same arguments and its approvalId. Then call site_import_resume until nextRequestInMs is null.',
    scope: null,
    annotations: { ...DESTRUCTIVE, idempotentHint: false },
    input: z.object({ id: OperationId, packageDigest: Digest, planDigest: Digest, approvalId: ApprovalId }),
    run: ({ services, actor }, a) =>
      services.transfer.imports.startFromTool(
        actor,
        a.id,
        { packageDigest: a.packageDigest, planDigest: a.planDigest },
        a.approvalId,
      ),
  }),
  tool({
    name: 'site_import_status',
    openDuring: DRIVES_SITE_IMPORT,
    title: 'Get Site Import Status',
    description:
      'Read an import without advancing it: state, stage, progress, uploaded and missing file counts, the plan headline, whether it holds the site.',
    scope: null,
    annotations: READ,
    input: z.object({ id: OperationId }),
    run: ({ services, actor }, a) => services.transfer.imports.get(actor, a.id, true),
  }),
  tool({
    name: 'site_import_resume',
    openDuring: DRIVES_SITE_IMPORT,
    title: 'Resume Site Import',
    description:
      'Run one bounded step of an executing import; call again after nextRequestInMs until it is null. Safe to repeat after a disconnect.',
    scope: null,
    annotations: { ...WRITE, idempotentHint: true },
    input: z.object({ id: OperationId }),
    run: ({ services, actor }, a) => services.transfer.imports.advance(actor, a.id, true),
  }),
  tool({
    name: 'site_import_receipt',
    openDuring: DRIVES_SITE_IMPORT,
    title: 'Get Site Import Receipt',
    description:
      'The receipt of a complete import, with its receiptDigest: records written by kind, records left out, principals mapped and created, media, transformations, warnings.',
    scope: null,
    annotations: READ,
    input: z.object({ id: OperationId }),
    run: ({ services, actor }, a) => services.transfer.imports.receipt(actor, a.id, true),
  }),
];

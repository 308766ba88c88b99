import { z } from 'zod';
import { READ, type ToolDef, tool, WRITE } from '../registry.js';

const OperationId = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('The operation ID a start call returned');
const ApprovalId = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  .optional()
  .describe('The approvalId of an approved request (after TRANSFER_APPROVAL_REQUIRED), with the same arguments');

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
];

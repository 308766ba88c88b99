import {
  AnalyzeBody,
  ApprovalListSchema,
  ApprovalSchema,
  CapabilitiesSchema,
  CreateExportBody,
  ExecuteBody,
  ExportListSchema,
  ExportSchema,
  ImportListSchema,
  ImportSchema,
  MissingQuery,
  MissingSchema,
  PlanSchema,
  ReceiptSchema,
  TransferIdParams,
  TransferListQuery,
} from '../schemas/transfer.js';
import { DRIVES_SITE_IMPORT } from '../services/holds.js';
import { operation } from './operation.js';

/**
 * The site transfer operations of the REST table (spec: "Site transfer").
 * Access is the transfer service's: the Admin role first, then the scope or
 * an approval, so no tool scope is declared here. Every write drives the
 * import, so each stays open while an import holds the site. The MCP tools
 * answer summaries of their own (mcp/tools/transfer.ts); package downloads
 * and uploads are transport (http/routes/transfer.ts).
 */
const DEFAULT_LIMIT = 50;
const MISSING_LIMIT = 100;
const drives = { writes: true, openDuring: DRIVES_SITE_IMPORT, scope: null } as const;
const reads = { writes: false, scope: null } as const;

export const getTransferCapabilities = operation({
  id: 'getTransferCapabilities',
  output: CapabilitiesSchema,
  ...reads,
  run: ({ services, actor }) => services.transfer.capabilities(actor),
});

export const listTransferExports = operation({
  id: 'listTransferExports',
  query: TransferListQuery,
  output: ExportListSchema,
  ...reads,
  run: ({ services, actor }, { query }) =>
    services.transfer.exports.list(actor, { cursor: query.cursor, limit: query.limit ?? DEFAULT_LIMIT }),
});

export const createTransferExport = operation({
  id: 'createTransferExport',
  body: CreateExportBody,
  output: ExportSchema,
  ...drives,
  run: ({ services, actor }, { body }) => services.transfer.exports.start(actor, { comments: body.comments ?? true }),
});

export const getTransferExport = operation({
  id: 'getTransferExport',
  params: TransferIdParams,
  output: ExportSchema,
  ...reads,
  run: ({ services, actor }, { params }) => services.transfer.exports.get(actor, params.id),
});

export const advanceTransferExport = operation({
  id: 'advanceTransferExport',
  params: TransferIdParams,
  output: ExportSchema,
  ...drives,
  run: ({ services, actor }, { params }) => services.transfer.exports.advance(actor, params.id),
});

export const listTransferImports = operation({
  id: 'listTransferImports',
  query: TransferListQuery,
  output: ImportListSchema,
  ...reads,
  run: ({ services, actor }, { query }) =>
    services.transfer.imports.list(actor, { cursor: query.cursor, limit: query.limit ?? DEFAULT_LIMIT }),
});

export const createTransferImport = operation({
  id: 'createTransferImport',
  output: ImportSchema,
  ...drives,
  run: ({ services, actor }) => services.transfer.imports.create(actor),
});

export const getTransferImport = operation({
  id: 'getTransferImport',
  params: TransferIdParams,
  output: ImportSchema,
  ...reads,
  run: ({ services, actor }, { params }) => services.transfer.imports.get(actor, params.id),
});

export const listTransferImportMissingFiles = operation({
  id: 'listTransferImportMissingFiles',
  params: TransferIdParams,
  query: MissingQuery,
  output: MissingSchema,
  ...reads,
  run: ({ services, actor }, { params, query }) =>
    services.transfer.imports.missing(actor, params.id, { cursor: query.cursor, limit: query.limit ?? MISSING_LIMIT }),
});

export const analyzeTransferImport = operation({
  id: 'analyzeTransferImport',
  params: TransferIdParams,
  body: AnalyzeBody,
  output: ImportSchema,
  ...drives,
  run: ({ services, actor }, { params, body }) => services.transfer.imports.analyze(actor, params.id, body.decisions),
});

export const getTransferImportPlan = operation({
  id: 'getTransferImportPlan',
  params: TransferIdParams,
  output: PlanSchema,
  ...reads,
  run: ({ services, actor }, { params }) => services.transfer.imports.plan(actor, params.id),
});

export const executeTransferImport = operation({
  id: 'executeTransferImport',
  params: TransferIdParams,
  body: ExecuteBody,
  output: ImportSchema,
  ...drives,
  run: ({ services, actor }, { params, body }) => services.transfer.imports.execute(actor, params.id, body),
});

export const advanceTransferImport = operation({
  id: 'advanceTransferImport',
  params: TransferIdParams,
  output: ImportSchema,
  ...drives,
  run: ({ services, actor }, { params }) => services.transfer.imports.advance(actor, params.id),
});

export const cancelTransferImport = operation({
  id: 'cancelTransferImport',
  params: TransferIdParams,
  output: ImportSchema,
  ...drives,
  run: ({ services, actor }, { params }) => services.transfer.imports.cancel(actor, params.id),
});

export const abandonTransferImport = operation({
  id: 'abandonTransferImport',
  params: TransferIdParams,
  output: ImportSchema,
  ...drives,
  run: ({ services, actor }, { params }) => services.transfer.imports.abandon(actor, params.id),
});

export const getTransferImportReceipt = operation({
  id: 'getTransferImportReceipt',
  params: TransferIdParams,
  output: ReceiptSchema,
  ...reads,
  run: ({ services, actor }, { params }) => services.transfer.imports.receipt(actor, params.id),
});

export const listTransferApprovals = operation({
  id: 'listTransferApprovals',
  query: TransferListQuery,
  output: ApprovalListSchema,
  ...reads,
  run: ({ services, actor }, { query }) =>
    services.transfer.approvals.list(actor, { cursor: query.cursor, limit: query.limit ?? DEFAULT_LIMIT }),
});

export const approveTransferApproval = operation({
  id: 'approveTransferApproval',
  params: TransferIdParams,
  output: ApprovalSchema,
  ...drives,
  run: ({ services, actor }, { params }) => services.transfer.approvals.decide(actor, params.id, 'approve'),
});

export const denyTransferApproval = operation({
  id: 'denyTransferApproval',
  params: TransferIdParams,
  output: ApprovalSchema,
  ...drives,
  run: ({ services, actor }, { params }) => services.transfer.approvals.decide(actor, params.id, 'deny'),
});

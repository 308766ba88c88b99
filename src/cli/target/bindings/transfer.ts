import { type Bindings, bind } from '../operations.js';
import type { Target } from '../types.js';

/** The site transfer methods that are catalogue operations (package downloads and uploads stream: hand-written). */
type Paging = { cursor?: string; limit?: number };
const byId = (id: string) => ({ params: { id } });

export const TRANSFER_OPERATIONS = {
  capabilities: bind('getTransferCapabilities', () => ({})),
} satisfies Bindings<Target['transfer']>;

export const TRANSFER_EXPORT_OPERATIONS = {
  start: bind('createTransferExport', (body: { comments?: boolean }) => ({ body })),
  list: bind('listTransferExports', (query: Paging) => ({ query })),
  get: bind('getTransferExport', byId),
  advance: bind('advanceTransferExport', byId),
} satisfies Bindings<Target['transfer']['exports']>;

export const TRANSFER_IMPORT_OPERATIONS = {
  create: bind('createTransferImport', () => ({})),
  list: bind('listTransferImports', (query: Paging) => ({ query })),
  get: bind('getTransferImport', byId),
  missing: bind('listTransferImportMissingFiles', (id: string, query: Paging) => ({ params: { id }, query })),
  analyze: bind('analyzeTransferImport', (id: string, decisions?: object) => ({
    params: { id },
    body: decisions === undefined ? {} : { decisions },
  })),
  plan: bind('getTransferImportPlan', byId),
  execute: bind('executeTransferImport', (id: string, body: { packageDigest: string; planDigest: string }) => ({
    params: { id },
    body,
  })),
  advance: bind('advanceTransferImport', byId),
  cancel: bind('cancelTransferImport', byId),
  abandon: bind('abandonTransferImport', byId),
  receipt: bind('getTransferImportReceipt', byId),
} satisfies Bindings<Target['transfer']['imports']>;

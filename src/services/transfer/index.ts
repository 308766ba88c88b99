import type { Actor } from '../../auth/actor.js';
import { RELEASE_VERSION } from '../../core/version.js';
import { migrations } from '../../db/migrations/index.js';
import type { ServiceContext } from '../context.js';
import type { MediaService } from '../media/index.js';
import type { SchemaService } from '../schema/index.js';
import { requireAnyTransfer } from './access.js';
import { approvalOps } from './approvals.js';
import type { TransferDeps } from './deps.js';
import { exportsApi } from './exports.js';
import { fileStore } from './files.js';
import { MAX_MANIFEST_BYTES, MAX_PACKAGE_FILES, PACKAGE_FORMAT, PACKAGE_FORMAT_VERSION } from './manifest.js';
import { operationStore } from './operations.js';
import { transferWorker } from './worker.js';

export type { ApprovalView } from './approvals.js';
export type { ExportView } from './exports.js';
export type { OperationSummary } from './operations.js';

/**
 * Site transfer: whole-site export as a site package (records, media,
 * manifest) in bounded steps, and the approvals that let an MCP client
 * without a transfer scope start one once an administrator agrees.
 */
export function createTransferService(
  ctx: ServiceContext,
  { schema, media }: { schema: SchemaService; media: MediaService },
) {
  const deps: TransferDeps = {
    ctx,
    schema,
    storage: media.storage,
    ops: operationStore(ctx),
    files: fileStore(ctx.db),
  };
  const approvals = approvalOps(ctx);
  const exports = exportsApi(deps, approvals);

  /** What this site can export and import (the package format, its limits). */
  function capabilities(actor: Actor) {
    requireAnyTransfer(actor);
    return {
      release: RELEASE_VERSION,
      schemaVersion: migrations[migrations.length - 1].name,
      package: {
        format: PACKAGE_FORMAT,
        formatVersion: PACKAGE_FORMAT_VERSION,
        archive: 'application/x-tar',
        maxFiles: MAX_PACKAGE_FILES,
        maxManifestBytes: MAX_MANIFEST_BYTES,
      },
      export: { options: { comments: { type: 'boolean', default: true } } },
      storage: deps.storage.kind,
    };
  }

  return {
    capabilities: async (actor: Actor) => capabilities(actor),
    exports,
    approvals: { list: approvals.list, decide: approvals.decide },
    /** Steps running operations in the background (started with the scheduler). */
    worker: transferWorker(deps, exports.step),
  };
}

export type TransferService = ReturnType<typeof createTransferService>;

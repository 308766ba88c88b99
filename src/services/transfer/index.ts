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
import { importGate } from './gate.js';
import type { ExecuteServices } from './import-execute.js';
import { MAX_RECORD_FILE_BYTES } from './import-upload.js';
import { importsApi } from './imports.js';
import { MAX_MANIFEST_BYTES, MAX_PACKAGE_FILES, PACKAGE_FORMAT, PACKAGE_FORMAT_VERSION } from './manifest.js';
import { operationStore } from './operations.js';
import { PACKAGE_RETENTION_MS, retentionOps } from './retention.js';
import { transferWorker } from './worker.js';

export type { ApprovalView } from './approvals.js';
export type { ExportView } from './exports.js';
export type { OperationSummary } from './operations.js';

/**
 * Site transfer: whole-site export as a site package (records, media,
 * manifest) and import of a package into an empty site, both in bounded
 * steps; the hold an import keeps on the site's writes; and the approvals
 * that let an MCP client without a transfer scope start either once an
 * administrator agrees.
 */
export function createTransferService(
  ctx: ServiceContext,
  { schema, media, search, mediaUsage }: { schema: SchemaService; media: MediaService } & ExecuteServices,
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
  const gate = importGate(ctx);
  const retention = retentionOps(deps);
  const imports = importsApi(deps, approvals, gate, { search, mediaUsage }, media.stagingDir, retention.removeOwned);

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
      import: {
        /** Largest media file an upload accepts (this site's maxUploadSize) and largest record file. */
        maxMediaFileBytes: ctx.config.maxUploadSize,
        maxRecordFileBytes: MAX_RECORD_FILE_BYTES,
        retentionDays: PACKAGE_RETENTION_MS / 86_400_000,
      },
      storage: deps.storage.kind,
    };
  }

  return {
    capabilities: async (actor: Actor) => capabilities(actor),
    exports,
    imports,
    approvals: { list: approvals.list, decide: approvals.decide },
    /** Steps running exports and executing imports in the background (started with the scheduler). */
    worker: transferWorker(deps, exports.step, imports.step, retention.sweep),
    /** Remove packages past their retention now (the worker does it every 10 minutes). */
    sweep: retention.sweep,
    /** The write gate of REST and MCP while an import holds the site (see gate.ts for what stays open). */
    checkWritesOpen: gate.check,
    /** Whether an import holds the site now (the scheduler waits while one does). */
    holdsSite: async () => (await gate.hold()) !== null,
  };
}

export type TransferService = ReturnType<typeof createTransferService>;

import type { Readable } from 'node:stream';
import type { Actor } from '../../auth/actor.js';
import { CmsError, notFound } from '../../core/errors.js';
import { hasScope, requireAdmin, requireTransfer } from './access.js';
import type { ApprovalOps } from './approvals.js';
import { archiveSize, archiveStream, openPackageFile } from './archive.js';
import type { TransferDeps } from './deps.js';
import { type ExportOptions, exportOps } from './export.js';
import { isPackagePath, MEDIA_FILE_KIND } from './manifest.js';
import { type OperationRow, type OperationSummary, type StartedBy, startersOf, summarize } from './operations.js';

/**
 * The export side of site transfer as the doors call it: start, list, read,
 * advance, and download (manifest, one file, the whole archive). Every call
 * checks the caller first; an operation started through an MCP approval
 * stays open to the user and token that started it.
 */
export interface ExportView extends OperationSummary {
  state: 'running' | 'complete' | 'failed' | 'expired';
  options: ExportOptions;
  /** Once complete: record counts by kind, media count and bytes, package file count and bytes. */
  totals: {
    records: Record<string, number>;
    media: { count: number; bytes: number };
    files: { count: number; bytes: number };
    skippedMedia: number;
  } | null;
  /** Call `advance` again after this many milliseconds; null once the export is complete or failed. */
  nextRequestInMs: number | null;
}

/** A busy step elsewhere (another process holds the lease): try again in a second. */
const BUSY_RETRY_MS = 1_000;

export function exportsApi(deps: TransferDeps, approvals: ApprovalOps) {
  const { ctx, ops, files, storage } = deps;
  const engine = exportOps(deps);

  async function views(rows: OperationRow[]): Promise<ExportView[]> {
    const starters = await startersOf(ctx.db, rows);
    return rows.map((row) => viewWith(row, starters.get(row.id) ?? null));
  }

  async function view(row: OperationRow): Promise<ExportView> {
    return (await views([row]))[0];
  }

  function viewWith(row: OperationRow, startedBy: StartedBy | null): ExportView {
    const leased = row.lease_expires_at !== null && row.lease_expires_at > ops.now();
    return {
      ...summarize(row, startedBy),
      state: row.state as ExportView['state'],
      options: JSON.parse(row.options) as ExportOptions,
      totals: row.totals ? (JSON.parse(row.totals) as ExportView['totals']) : null,
      nextRequestInMs: row.state === 'running' ? (leased ? BUSY_RETRY_MS : 0) : null,
    };
  }

  /**
   * The export, once the caller may see it: an administrator with the scope,
   * or (MCP status calls only) the user and token an approval started it for.
   */
  async function load(actor: Actor, id: string, approvalOpens = false): Promise<OperationRow> {
    requireAdmin(actor);
    const row = await ops.find(ctx.db, 'export', id);
    const viaApproval =
      approvalOpens && row !== undefined && !hasScope(actor, 'transfer:export') && (await approvals.grants(id, actor));
    if (!viaApproval) requireTransfer(actor, 'transfer:export');
    if (!row) throw notFound(`Transfer export "${id}"`);
    return row;
  }

  function complete(row: OperationRow): OperationRow & { manifest: string } {
    if (row.state !== 'complete' || row.manifest === null) {
      throw new CmsError('INVALID_STATE', `The export is ${row.state}; its package is ready once it is complete`, {
        state: row.state,
      });
    }
    return row as OperationRow & { manifest: string };
  }

  return {
    async start(actor: Actor, options: ExportOptions): Promise<ExportView> {
      requireTransfer(actor, 'transfer:export');
      return view(await engine.start(actor, options));
    },

    /**
     * MCP `site_export_start`: with the scope it starts at once; without it,
     * only under an approved request bound to this call, used in the same
     * transaction that starts the export.
     */
    async startFromTool(actor: Actor, options: ExportOptions, approvalId: string | undefined): Promise<ExportView> {
      requireAdmin(actor);
      if (hasScope(actor, 'transfer:export') && approvalId === undefined)
        return view(await engine.start(actor, options));
      const approval = await approvals.check(actor, 'export', { comments: options.comments }, approvalId);
      return view(await engine.start(actor, options, (row, trx) => approvals.use(trx, approval, row.id)));
    },

    /**
     * MCP `site_export_status`: one step unless `advance` is false. The user
     * and token an approval started the export for may follow it without the scope.
     */
    async statusFromTool(actor: Actor, id: string, advance: boolean): Promise<ExportView> {
      const row = await load(actor, id, true);
      if (!advance || row.state !== 'running') return view(row);
      return view(await engine.step(id));
    },

    async list(actor: Actor, input: { cursor?: string; limit: number }) {
      requireTransfer(actor, 'transfer:export');
      const rows = await ops.list(ctx.db, 'export', { before: input.cursor, limit: input.limit + 1 });
      const page = rows.slice(0, input.limit);
      return {
        items: await views(page),
        nextCursor: rows.length > input.limit ? page[page.length - 1].id : null,
      };
    },

    async get(actor: Actor, id: string): Promise<ExportView> {
      return view(await load(actor, id));
    },

    /** One bounded step; a complete or failed export is answered as it is. */
    async advance(actor: Actor, id: string): Promise<ExportView> {
      const row = await load(actor, id);
      if (row.state !== 'running') return view(row);
      return view(await engine.step(id));
    },

    async manifest(actor: Actor, id: string): Promise<{ text: string; digest: string }> {
      const row = complete(await load(actor, id));
      return { text: row.manifest, digest: row.package_digest as string };
    },

    async file(
      actor: Actor,
      id: string,
      path: string,
    ): Promise<{ body: Readable; size: number; sha256: string; path: string; contentType: string }> {
      complete(await load(actor, id));
      const file = isPackagePath(path) ? await files.get(id, path) : undefined;
      if (!file) throw notFound(`Package file "${path}"`);
      return {
        body: await openPackageFile(storage, file),
        size: Number(file.size),
        sha256: file.sha256,
        path: file.path,
        contentType: file.kind === MEDIA_FILE_KIND ? 'application/octet-stream' : 'application/x-ndjson; charset=utf-8',
      };
    },

    async archive(actor: Actor, id: string): Promise<{ body: Readable; size: number; filename: string }> {
      const row = complete(await load(actor, id));
      const sizes = await ctx.db
        .selectFrom('_cms_transfer_files')
        .select('size')
        .where('operation_id', '=', id)
        .execute();
      const manifestBytes = Buffer.byteLength(row.manifest, 'utf8');
      return {
        body: archiveStream(storage, files, id, row.manifest, new Date(row.completed_at ?? row.created_at)),
        size: archiveSize(
          manifestBytes,
          sizes.map((s) => Number(s.size)),
        ),
        filename: `site-${row.id}.tar`,
      };
    },

    /** Advance running exports in the background (the worker), a step at a time. */
    step: engine.step,
    view,
  };
}

export type ExportsApi = ReturnType<typeof exportsApi>;

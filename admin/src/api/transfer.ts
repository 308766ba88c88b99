/**
 * Site transfer (Admins with `transfer:export`): exports, their downloads and
 * the approvals MCP clients ask for, over the typed client (docs/transfer.md).
 */
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { paths } from '../../../generated/api-schema.gen';
import { api, type Schemas, unwrap } from './client';
import { API_BASE, seg } from './http';

export type TransferExport = Schemas['TransferExport'];
export type TransferApproval = Schemas['TransferApproval'];
export type ApprovalState = TransferApproval['state'];
export type ExportPage = { items: TransferExport[]; nextCursor: string | null };
export type ApprovalPage = { items: TransferApproval[]; nextCursor: string | null };

export const transferKeys = {
  all: ['transfer'] as const,
  exports: ['transfer', 'exports'] as const,
  approvals: ['transfer', 'approvals'] as const,
};

/** Exports are tall (totals, digest, downloads): fewer per page than approvals. */
const EXPORT_PAGE = 10;
const APPROVAL_PAGE = 20;

export const listExports = (cursor?: string) =>
  unwrap(api.GET('/admin/transfer/exports', { params: { query: { cursor, limit: EXPORT_PAGE } } }));

export const startExport = (comments: boolean) => unwrap(api.POST('/admin/transfer/exports', { body: { comments } }));

/** One bounded step (about a second of work); the answer says when to call again (`nextRequestInMs`). */
export const advanceExport = (id: string) =>
  unwrap(api.POST('/admin/transfer/exports/{id}/advance', { params: { path: { id } } }));

export const listApprovals = (cursor?: string) =>
  unwrap(api.GET('/admin/transfer/approvals', { params: { query: { cursor, limit: APPROVAL_PAGE } } }));

export const decideApproval = (id: string, decision: 'approve' | 'deny') =>
  decision === 'approve'
    ? unwrap(api.POST('/admin/transfer/approvals/{id}/approve', { params: { path: { id } } }))
    : unwrap(api.POST('/admin/transfer/approvals/{id}/deny', { params: { path: { id } } }));

type DownloadPath = Extract<
  keyof paths,
  '/admin/transfer/exports/{id}/archive' | '/admin/transfer/exports/{id}/manifest'
>;

/**
 * The address of a download. Downloads are plain GETs the session cookie
 * authenticates, so a link with `download` fetches them (no script, no
 * buffering in the page; the server names the file).
 */
export const downloadUrl = (path: DownloadPath, id: string) => API_BASE + path.replace('{id}', seg(id));

/**
 * Put a fresher copy of one operation into a cached paged list: in place of
 * the listed copy (where `replaces` says it is older), or prepended to the
 * first page when the operation is new to the list.
 */
export function patchPagedList<T extends { id: string }>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  op: T,
  replaces: (listed: T) => boolean = () => true,
): void {
  queryClient.setQueryData<InfiniteData<{ items: T[]; nextCursor: string | null }, string | undefined>>(
    queryKey,
    (data) => {
      if (!data) return data;
      const known = data.pages.some((p) => p.items.some((i) => i.id === op.id));
      const pages = data.pages.map((p, index) => {
        if (known) return { ...p, items: p.items.map((i) => (i.id === op.id && replaces(i) ? op : i)) };
        return index === 0 ? { ...p, items: [op, ...p.items] } : p;
      });
      return { ...data, pages };
    },
  );
}

/** Put a fresher copy of one export into the cached list (prepended when it is new). */
export const patchExportList = (queryClient: QueryClient, op: TransferExport) =>
  patchPagedList(queryClient, transferKeys.exports, op);

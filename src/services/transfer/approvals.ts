import type { Actor } from '../../auth/actor.js';
import { CmsError, notFound } from '../../core/errors.js';
import { newId, sha256Hex } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { TransferApprovalsTable, TransferKind } from '../../db/tables-transfer.js';
import type { ServiceContext } from '../context.js';
import { requireAdmin } from './access.js';

/**
 * Approvals of MCP transfer requests (spec 2, "Transfer approval request"):
 * a `site_export_start` or `site_import_start` call whose token lacks the
 * scope opens a request bound to the user, the token, the action and the
 * exact arguments; an administrator approves or denies it in a signed-in
 * session; the repeated call with its `approvalId` uses it once. Pending
 * requests expire 15 minutes after creation, approved ones 15 minutes after
 * the approval.
 */
export const APPROVAL_TTL_MS = 15 * 60 * 1000;

export type ApprovalRow = TransferApprovalsTable;
export type ApprovalState = 'pending' | 'approved' | 'denied' | 'used' | 'expired';

export interface ApprovalView {
  id: string;
  action: TransferKind;
  state: ApprovalState;
  arguments: Record<string, unknown>;
  user: { id: string; name: string | null };
  tokenId: string;
  tokenName: string | null;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  decidedByName: string | null;
  usedAt: string | null;
  operationId: string | null;
}

/** Arguments as the binding compares them: keys sorted, so the same call gives the same text. */
export function canonicalArgs(args: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(args).sort(([a], [b]) => a.localeCompare(b))));
}

export function approvalOps(ctx: ServiceContext) {
  const nowIso = () => ctx.clock.now().toISOString();
  const later = () => new Date(ctx.clock.now().getTime() + APPROVAL_TTL_MS).toISOString();

  function stateOf(row: ApprovalRow): ApprovalState {
    if ((row.state === 'pending' || row.state === 'approved') && row.expires_at <= nowIso()) return 'expired';
    return row.state;
  }

  function invalid(reason: string, row?: ApprovalRow): CmsError {
    return new CmsError('TRANSFER_APPROVAL_INVALID', `The approval cannot be used: ${reason}`, {
      ...(row ? { approvalId: row.id, state: stateOf(row), expiresAt: row.expires_at } : {}),
    });
  }

  /**
   * The approval this call may run under: returns when `approvalId` names an
   * approved request bound to exactly this call; otherwise throws
   * TRANSFER_APPROVAL_REQUIRED with the open request (created if none), or
   * TRANSFER_APPROVAL_INVALID.
   */
  async function check(
    actor: Actor,
    action: TransferKind,
    args: Record<string, unknown>,
    approvalId: string | undefined,
  ): Promise<ApprovalRow> {
    requireAdmin(actor);
    if (!actor.tokenId || !actor.userId) {
      throw new CmsError('INSUFFICIENT_SCOPE', 'An approval needs a token; this caller has none', {
        scope: `transfer:${action === 'export' ? 'export' : 'execute'}`,
      });
    }
    const text = canonicalArgs(args);
    const digest = sha256Hex(text);
    if (approvalId !== undefined) {
      const row = await ctx.db
        .selectFrom('_cms_transfer_approvals')
        .selectAll()
        .where('id', '=', approvalId)
        .executeTakeFirst();
      if (!row || row.user_id !== actor.userId || row.token_id !== actor.tokenId)
        throw invalid('it was given to another caller or does not exist');
      if (row.action !== action || row.args_digest !== digest) throw invalid('it is bound to other arguments', row);
      const state = stateOf(row);
      if (state !== 'approved') throw invalid(`it is ${state}`, row);
      return row;
    }
    const open = await ctx.db
      .selectFrom('_cms_transfer_approvals')
      .selectAll()
      .where('user_id', '=', actor.userId)
      .where('token_id', '=', actor.tokenId)
      .where('action', '=', action)
      .where('args_digest', '=', digest)
      .where('state', 'in', ['pending', 'approved'])
      .where('expires_at', '>', nowIso())
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const row =
      open ??
      ({
        id: newId(),
        user_id: actor.userId,
        token_id: actor.tokenId,
        action,
        args: text,
        args_digest: digest,
        state: 'pending',
        created_at: nowIso(),
        expires_at: later(),
        decided_at: null,
        decided_by: null,
        used_at: null,
        operation_id: null,
      } satisfies ApprovalRow);
    if (!open) await ctx.db.insertInto('_cms_transfer_approvals').values(row).execute();
    throw new CmsError(
      'TRANSFER_APPROVAL_REQUIRED',
      `This token lacks the scope for a site ${action}: an administrator must approve request ${row.id} in the admin (Administration → Site transfer → Approvals) before ${row.expires_at}; then call again with approvalId`,
      { approvalId: row.id, state: stateOf(row), expiresAt: row.expires_at },
    );
  }

  /** Mark an approval used by the operation it started (inside the transaction that started it). */
  async function use(trx: Kdb, row: ApprovalRow, operationId: string): Promise<void> {
    const result = await trx
      .updateTable('_cms_transfer_approvals')
      .set({ state: 'used', used_at: nowIso(), operation_id: operationId })
      .where('id', '=', row.id)
      .where('state', '=', 'approved')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw invalid('it was used or changed meanwhile', row);
  }

  /** Whether an operation was started through an approval given to this user and token. */
  async function grants(operationId: string, actor: Actor): Promise<boolean> {
    if (!actor.tokenId) return false;
    const row = await ctx.db
      .selectFrom('_cms_transfer_approvals')
      .select('id')
      .where('operation_id', '=', operationId)
      .where('token_id', '=', actor.tokenId)
      .where('user_id', '=', actor.userId)
      .where('state', '=', 'used')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Approving and denying: administrators in a signed-in session only (spec: API tokens cannot approve). */
  function requireSession(actor: Actor): void {
    requireAdmin(actor);
    if (actor.via !== 'session') {
      throw new CmsError('FORBIDDEN', 'Transfer approvals are decided in a signed-in session, not with a token');
    }
  }

  async function views(rows: ApprovalRow[]): Promise<ApprovalView[]> {
    if (rows.length === 0) return [];
    const users = await ctx.db
      .selectFrom('_cms_users')
      .select(['id', 'name'])
      .where('id', 'in', [...new Set(rows.flatMap((r) => [r.user_id, ...(r.decided_by ? [r.decided_by] : [])]))])
      .execute();
    const tokens = await ctx.db
      .selectFrom('_cms_api_tokens')
      .select(['id', 'name'])
      .where(
        'id',
        'in',
        rows.map((r) => r.token_id),
      )
      .execute();
    const oauth = await ctx.db
      .selectFrom('_cms_oauth_tokens')
      .innerJoin('_cms_oauth_clients', '_cms_oauth_clients.id', '_cms_oauth_tokens.client_id')
      .select(['_cms_oauth_tokens.id as id', '_cms_oauth_clients.name as name'])
      .where(
        '_cms_oauth_tokens.id',
        'in',
        rows.map((r) => r.token_id),
      )
      .execute();
    const userName = new Map(users.map((u) => [u.id, u.name]));
    const tokenName = new Map<string, string | null>([
      ...tokens.map((t) => [t.id, t.name] as const),
      ...oauth.map((t) => [t.id, t.name] as const),
    ]);
    return rows.map((r) => ({
      id: r.id,
      action: r.action,
      state: stateOf(r),
      arguments: JSON.parse(r.args) as Record<string, unknown>,
      user: { id: r.user_id, name: userName.get(r.user_id) ?? null },
      tokenId: r.token_id,
      tokenName: tokenName.get(r.token_id) ?? null,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      decidedAt: r.decided_at,
      decidedBy: r.decided_by,
      decidedByName: r.decided_by ? (userName.get(r.decided_by) ?? null) : null,
      usedAt: r.used_at,
      operationId: r.operation_id,
    }));
  }

  async function list(
    actor: Actor,
    { cursor, limit }: { cursor?: string; limit: number },
  ): Promise<{ items: ApprovalView[]; nextCursor: string | null }> {
    requireSession(actor);
    let q = ctx.db.selectFrom('_cms_transfer_approvals').selectAll();
    if (cursor) q = q.where('id', '<', cursor);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    return { items: await views(page), nextCursor: rows.length > limit ? page[page.length - 1].id : null };
  }

  async function decide(actor: Actor, id: string, decision: 'approve' | 'deny'): Promise<ApprovalView> {
    requireSession(actor);
    const row = await ctx.db.selectFrom('_cms_transfer_approvals').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`Transfer approval "${id}"`);
    const state = stateOf(row);
    if (state !== 'pending') {
      throw new CmsError('INVALID_STATE', `The request is ${state}; only a pending request can be decided`, {
        state,
      });
    }
    const set =
      decision === 'approve'
        ? { state: 'approved' as const, decided_at: nowIso(), decided_by: actor.userId, expires_at: later() }
        : { state: 'denied' as const, decided_at: nowIso(), decided_by: actor.userId };
    const result = await ctx.db
      .updateTable('_cms_transfer_approvals')
      .set(set)
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new CmsError('CONFLICT', 'The request was decided meanwhile');
    const [view] = await views([{ ...row, ...set }]);
    return view;
  }

  return { check, use, grants, list, decide, stateOf };
}

export type ApprovalOps = ReturnType<typeof approvalOps>;

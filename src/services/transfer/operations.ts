import { CmsError, notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { TransferKind, TransferOperationsTable } from '../../db/tables-transfer.js';
import type { ServiceContext } from '../context.js';

/**
 * Rows of `_cms_transfer_operations`, shared by exports and imports: reading
 * them as the summary every door shows, creating them, and the lease that
 * lets one process at a time run a step (a dead holder's lease expires).
 */
export interface Progress {
  done: number;
  total: number;
  records?: number;
  bytesDone?: number;
  bytesTotal?: number;
}

/** The operation as REST and MCP show it (spec 2, site transfer rule 6). */
export interface OperationSummary {
  id: string;
  kind: TransferKind;
  state: string;
  stage: string | null;
  progress: Progress;
  packageDigest: string | null;
  planDigest: string | null;
  error: { code: string; message: string } | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  /** Who started it, and with which token (null: the command line, or a user since removed). */
  startedBy: StartedBy | null;
}

export interface StartedBy {
  id: string;
  name: string | null;
  tokenName: string | null;
}

export type OperationRow = TransferOperationsTable;

/** A step's lease: long enough for one bounded step, short enough that a crashed holder is soon replaced. */
export const LEASE_MS = 60_000;

/** The user (and token) that started each operation, in three queries whatever the number of rows. */
export async function startersOf(db: Kdb, rows: OperationRow[]): Promise<Map<string, StartedBy>> {
  const userIds = [...new Set(rows.flatMap((r) => (r.created_by ? [r.created_by] : [])))];
  const tokenIds = [...new Set(rows.flatMap((r) => (r.token_id ? [r.token_id] : [])))];
  const [users, pats, oauth] = await Promise.all([
    userIds.length ? db.selectFrom('_cms_users').select(['id', 'name']).where('id', 'in', userIds).execute() : [],
    tokenIds.length
      ? db.selectFrom('_cms_api_tokens').select(['id', 'name']).where('id', 'in', tokenIds).execute()
      : [],
    tokenIds.length
      ? db
          .selectFrom('_cms_oauth_tokens')
          .innerJoin('_cms_oauth_clients', '_cms_oauth_clients.id', '_cms_oauth_tokens.client_id')
          .select(['_cms_oauth_tokens.id as id', '_cms_oauth_clients.name as name'])
          .where('_cms_oauth_tokens.id', 'in', tokenIds)
          .execute()
      : [],
  ]);
  const userName = new Map(users.map((u) => [u.id, u.name]));
  const tokenName = new Map<string, string>([...pats, ...oauth].map((t) => [t.id, t.name]));
  const out = new Map<string, StartedBy>();
  for (const r of rows) {
    if (!r.created_by || !userName.has(r.created_by)) continue;
    out.set(r.id, {
      id: r.created_by,
      name: userName.get(r.created_by) ?? null,
      tokenName: r.token_id ? (tokenName.get(r.token_id) ?? null) : null,
    });
  }
  return out;
}

export function summarize(row: OperationRow, startedBy: StartedBy | null = null): OperationSummary {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    stage: row.stage,
    progress: JSON.parse(row.progress) as Progress,
    packageDigest: row.package_digest,
    planDigest: row.plan_digest,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    startedBy,
  };
}

export function operationStore(ctx: ServiceContext) {
  const now = () => ctx.clock.now().toISOString();

  async function find(db: Kdb, kind: TransferKind, id: string): Promise<OperationRow | undefined> {
    return db
      .selectFrom('_cms_transfer_operations')
      .selectAll()
      .where('id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
  }

  async function get(db: Kdb, kind: TransferKind, id: string): Promise<OperationRow> {
    const row = await find(db, kind, id);
    if (!row) throw notFound(`Transfer ${kind} "${id}"`);
    return row;
  }

  async function create(
    db: Kdb,
    values: Pick<OperationRow, 'kind' | 'state' | 'stage' | 'options' | 'cursor' | 'progress'> &
      Partial<Pick<OperationRow, 'manifest' | 'package_digest' | 'created_by' | 'token_id'>>,
  ): Promise<OperationRow> {
    const at = now();
    const row: OperationRow = {
      id: newId(),
      manifest: null,
      package_digest: null,
      plan: null,
      plan_digest: null,
      decisions: null,
      totals: null,
      receipt: null,
      error_code: null,
      error_message: null,
      created_by: null,
      token_id: null,
      lease_token: null,
      lease_expires_at: null,
      version: 1,
      created_at: at,
      updated_at: at,
      completed_at: null,
      ...values,
    };
    await db.insertInto('_cms_transfer_operations').values(row).execute();
    return row;
  }

  /**
   * Take the step lease of an operation in `states`; null when another
   * process holds it (or the state moved on), so the caller answers the
   * current state and asks to be called again.
   */
  async function claim(kind: TransferKind, id: string, states: readonly string[]): Promise<OperationRow | null> {
    const row = await get(ctx.db, kind, id);
    if (!states.includes(row.state)) return null;
    const at = now();
    if (row.lease_expires_at && row.lease_expires_at > at) return null;
    const token = newId();
    const leased = await ctx.db
      .updateTable('_cms_transfer_operations')
      .set({
        lease_token: token,
        lease_expires_at: new Date(ctx.clock.now().getTime() + LEASE_MS).toISOString(),
        version: row.version + 1,
      })
      .where('id', '=', id)
      .where('version', '=', row.version)
      .executeTakeFirst();
    if (Number(leased.numUpdatedRows) !== 1) return null;
    return { ...row, lease_token: token, version: row.version + 1 };
  }

  /**
   * Write a step's outcome and give the lease back, in the caller's
   * transaction. False when the lease was lost (it expired and another
   * process took over): the caller's transaction must then roll back.
   */
  async function release(
    trx: Kdb,
    leased: OperationRow,
    set: Partial<Omit<OperationRow, 'id' | 'kind' | 'version' | 'lease_token' | 'lease_expires_at'>>,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('_cms_transfer_operations')
      .set({ ...set, lease_token: null, lease_expires_at: null, version: leased.version + 1, updated_at: now() })
      .where('id', '=', leased.id)
      .where('lease_token', '=', leased.lease_token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Give a lease back without changing anything else (a step that failed before writing). */
  async function drop(leased: OperationRow): Promise<void> {
    await ctx.db
      .updateTable('_cms_transfer_operations')
      .set({ lease_token: null, lease_expires_at: null })
      .where('id', '=', leased.id)
      .where('lease_token', '=', leased.lease_token)
      .execute();
  }

  /** Change an operation's row when it is still at `version` (state moves outside a step). */
  async function update(
    db: Kdb,
    row: OperationRow,
    set: Partial<Omit<OperationRow, 'id' | 'kind' | 'version'>>,
  ): Promise<OperationRow> {
    const at = now();
    const result = await db
      .updateTable('_cms_transfer_operations')
      .set({ ...set, version: row.version + 1, updated_at: at })
      .where('id', '=', row.id)
      .where('version', '=', row.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      throw new CmsError('CONFLICT', 'The operation changed while this request ran; read it again');
    }
    return { ...row, ...set, version: row.version + 1, updated_at: at };
  }

  async function list(
    db: Kdb,
    kind: TransferKind,
    { before, limit }: { before?: string; limit: number },
  ): Promise<OperationRow[]> {
    let q = db.selectFrom('_cms_transfer_operations').selectAll().where('kind', '=', kind);
    if (before) q = q.where('id', '<', before);
    return q.orderBy('id', 'desc').limit(limit).execute();
  }

  return { find, get, create, claim, release, drop, update, list, now };
}

export type OperationStore = ReturnType<typeof operationStore>;

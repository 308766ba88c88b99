import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { CmsError, issuesError, notFound } from '../../core/errors.js';
import { hasScope, requireAdmin, requireAnyTransfer, requireTransfer, type TransferScope } from './access.js';
import type { ApprovalOps } from './approvals.js';
import type { TransferDeps } from './deps.js';
import { HOLD_KEY, type ImportGate } from './gate.js';
import { analyzeOps, occupiedKinds } from './import-analyze.js';
import { type ExecuteServices, executeOps, initialCursor, type Receipt, readExecuteCursor } from './import-execute.js';
import { type DecisionsInput, forViewer, type Plan } from './import-plan.js';
import { rollbackOps } from './import-rollback.js';
import { uploadOps } from './import-upload.js';
import { type OperationRow, type OperationSummary, startersOf, summarize } from './operations.js';

/**
 * The import side of site transfer as the doors call it. States: uploading
 * (manifest, then files) → analyzing → planned → executing → complete, or
 * failed; cancel stops any of them (an import that began writing keeps its
 * hold on the site until abandoned); abandon undoes a failed or cancelled
 * import's writes and lifts the hold.
 */
export type ImportState =
  | 'uploading'
  | 'analyzing'
  | 'planned'
  | 'executing'
  | 'complete'
  | 'failed'
  | 'cancelled'
  | 'abandoned';

export interface ImportView extends OperationSummary {
  state: ImportState;
  files: { listed: number; uploaded: number; missing: number; bytes: number; bytesUploaded: number };
  /** The plan's headline, once there is one. */
  plan: { executable: boolean; blockers: number; warnings: number } | null;
  /** This import holds the site: other writes are refused until it completes or is abandoned. */
  holdsSite: boolean;
  /** Call analyze (analyzing) or advance (executing) again after this many milliseconds; null: nothing to drive. */
  nextRequestInMs: number | null;
}

const BUSY_RETRY_MS = 1_000;
const CANCELLABLE = ['uploading', 'analyzing', 'planned', 'executing'];

export function importsApi(
  deps: TransferDeps,
  approvals: ApprovalOps,
  gate: ImportGate,
  services: ExecuteServices,
  stagingDir: string,
  removeOwned: (operationId: string) => Promise<void>,
) {
  const { ctx, ops } = deps;
  const upload = uploadOps(deps, stagingDir);
  const analysis = analyzeOps(deps, upload);
  const execution = executeOps(deps, services, removeOwned);
  const undo = rollbackOps(deps);

  async function view(row: OperationRow): Promise<ImportView> {
    const files = await ctx.db
      .selectFrom('_cms_transfer_files')
      .select([
        sql<number>`count(*)`.as('listed'),
        sql<number>`count(uploaded_at)`.as('uploaded'),
        sql<number>`coalesce(sum(size), 0)`.as('bytes'),
        sql<number>`coalesce(sum(case when uploaded_at is null then 0 else size end), 0)`.as('bytesUploaded'),
      ])
      .where('operation_id', '=', row.id)
      .executeTakeFirst();
    const listed = Number(files?.listed ?? 0);
    const uploaded = Number(files?.uploaded ?? 0);
    const plan = row.plan ? (JSON.parse(row.plan) as Plan) : null;
    const leased = row.lease_expires_at !== null && row.lease_expires_at > ops.now();
    const driven = row.state === 'analyzing' || row.state === 'executing';
    const starters = await startersOf(ctx.db, [row]);
    const summary = summarize(row, starters.get(row.id) ?? null);
    if (row.state === 'uploading') {
      // While files come in, progress is the upload's: files (the manifest included) and bytes.
      summary.progress = {
        done: uploaded + (row.manifest === null ? 0 : 1),
        total: listed + 1,
        bytesDone: Number(files?.bytesUploaded ?? 0),
        bytesTotal: Number(files?.bytes ?? 0),
      };
    }
    return {
      ...summary,
      state: row.state as ImportState,
      files: {
        listed: listed + 1,
        uploaded: uploaded + (row.manifest === null ? 0 : 1),
        missing: listed - uploaded + (row.manifest === null ? 1 : 0),
        bytes: Number(files?.bytes ?? 0),
        bytesUploaded: Number(files?.bytesUploaded ?? 0),
      },
      plan: plan ? { executable: plan.executable, blockers: plan.blockers.total, warnings: plan.warnings.total } : null,
      holdsSite: (await gate.hold()) === row.id,
      nextRequestInMs: driven ? (leased ? BUSY_RETRY_MS : 0) : null,
    };
  }

  /** The import, once the caller may act on it (the scope, or the approval that started it for this token). */
  async function load(actor: Actor, id: string, scope: TransferScope | 'any', approvalOpens = false) {
    requireAdmin(actor);
    const row = await ops.find(ctx.db, 'import', id);
    const viaApproval =
      approvalOpens && row !== undefined && !hasScope(actor, 'transfer:execute') && (await approvals.grants(id, actor));
    if (!viaApproval) {
      if (scope === 'any') requireAnyTransfer(actor);
      else requireTransfer(actor, scope);
    }
    if (!row) throw notFound(`Transfer import "${id}"`);
    return row;
  }

  function planOf(row: OperationRow): Plan {
    if (!row.plan) {
      throw new CmsError('INVALID_STATE', `The import has no plan yet (it is ${row.state}); analyze it first`, {
        state: row.state,
      });
    }
    return JSON.parse(row.plan) as Plan;
  }

  /** Checks execute makes (and site_import_start before it asks for an approval). */
  function checkExecutable(row: OperationRow, digests: { packageDigest: string; planDigest: string }): Plan {
    if (row.state !== 'planned') {
      throw new CmsError('INVALID_STATE', `Only a planned import can be executed; this one is ${row.state}`, {
        state: row.state,
      });
    }
    const plan = planOf(row);
    const issues = [];
    if (digests.packageDigest !== row.package_digest)
      issues.push({ path: ['packageDigest'], code: 'stale', message: `the package's digest is ${row.package_digest}` });
    if (digests.planDigest !== plan.planDigest)
      issues.push({ path: ['planDigest'], code: 'stale', message: 'not the digest of the latest plan; read it again' });
    if (issues.length) throw issuesError('The digests do not name this import’s latest plan', issues);
    if (!plan.executable) {
      throw new CmsError('INVALID_STATE', 'The plan has blockers: resolve them and analyze again', {
        blockers: plan.blockers.items.map((b) => b.code),
      });
    }
    return plan;
  }

  /** Move a planned import to executing and take the hold, in one transaction (a second import cannot). */
  async function begin(row: OperationRow, plan: Plan, within?: (trx: typeof ctx.db) => Promise<void>) {
    const fresh = await analysis.plan(row, JSON.parse(row.totals as string), undefined);
    if (fresh.planDigest !== plan.planDigest) {
      throw new CmsError(
        'CONFLICT',
        'The site changed since the plan was made; analyze again and review the new plan',
        {
          planDigest: fresh.planDigest,
          blockers: fresh.blockers.items.map((b) => b.code),
        },
      );
    }
    const total = Object.values(plan.counts.records).reduce((n, c) => n + c, 0);
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await trx.insertInto('_cms_meta').values({ key: HOLD_KEY, value: row.id }).execute();
        // Again, with the hold taken: a write that slipped in since the plan was checked is seen here.
        if (Object.keys(await occupiedKinds(trx)).length) {
          throw new CmsError(
            'CONFLICT',
            'The site changed since the plan was made; analyze again and review the new plan',
          );
        }
        await ops.update(trx, row, {
          state: 'executing',
          stage: 'records',
          cursor: JSON.stringify(initialCursor(ops.now())),
          progress: JSON.stringify({ done: 0, total, records: 0 }),
        });
        if (within) await within(trx);
      });
    } catch (err) {
      const held = await ctx.db.selectFrom('_cms_meta').select('value').where('key', '=', HOLD_KEY).executeTakeFirst();
      if (held && held.value !== row.id) throw new CmsError('CONFLICT', `Import ${held.value} holds this site`);
      throw err;
    }
    await ctx.bus.publish('transfer');
  }

  return {
    view,

    async create(actor: Actor): Promise<ImportView> {
      requireTransfer(actor, 'transfer:analyze');
      const row = await ops.create(ctx.db, {
        kind: 'import',
        state: 'uploading',
        stage: 'manifest',
        options: '{}',
        cursor: null,
        progress: JSON.stringify({ done: 0, total: 1 }),
        created_by: actor.userId,
        token_id: actor.tokenId,
      });
      return view(row);
    },

    async list(actor: Actor, input: { cursor?: string; limit: number }) {
      requireAnyTransfer(actor);
      const rows = await ops.list(ctx.db, 'import', { before: input.cursor, limit: input.limit + 1 });
      const page = rows.slice(0, input.limit);
      return {
        items: await Promise.all(page.map(view)),
        nextCursor: rows.length > input.limit ? page[page.length - 1].id : null,
      };
    },

    get: async (actor: Actor, id: string, approvalOpens = false) => view(await load(actor, id, 'any', approvalOpens)),

    async missing(actor: Actor, id: string, input: { cursor?: string; limit: number }) {
      const row = await load(actor, id, 'any');
      const after = input.cursor && /^\d{1,9}$/.test(input.cursor) ? Number(input.cursor) : 0;
      return upload.missing(row, after, input.limit);
    },

    async upload(actor: Actor, id: string, path: string, body: Readable | null, declared: number | null) {
      const row = await load(actor, id, 'transfer:analyze');
      await upload.put(row, path, body, declared);
      return view(await ops.get(ctx.db, 'import', id));
    },

    /** One analysis step, or (on a planned import) a new plan for new decisions. */
    async analyze(actor: Actor, id: string, decisions?: DecisionsInput): Promise<ImportView> {
      const row = await load(actor, id, 'transfer:analyze');
      await analysis.analyze(row, decisions);
      return view(await ops.get(ctx.db, 'import', id));
    },

    async plan(actor: Actor, id: string): Promise<Plan> {
      return forViewer(planOf(await load(actor, id, 'any')), actor);
    },

    async execute(actor: Actor, id: string, digests: { packageDigest: string; planDigest: string }) {
      const row = await load(actor, id, 'transfer:execute');
      await begin(row, checkExecutable(row, digests));
      return view(await ops.get(ctx.db, 'import', id));
    },

    /**
     * MCP `site_import_start`: with the scope it executes at once; without it,
     * only under an approved request bound to the import and both digests
     * (checked before a request is made).
     */
    async startFromTool(
      actor: Actor,
      id: string,
      digests: { packageDigest: string; planDigest: string },
      approvalId: string | undefined,
    ) {
      requireAdmin(actor);
      const row = await ops.find(ctx.db, 'import', id);
      if (!row) throw notFound(`Transfer import "${id}"`);
      const plan = checkExecutable(row, digests);
      if (hasScope(actor, 'transfer:execute') && approvalId === undefined) {
        await begin(row, plan);
        return view(await ops.get(ctx.db, 'import', id));
      }
      const approval = await approvals.check(actor, 'import', { id, ...digests }, approvalId);
      await begin(row, plan, (trx) => approvals.use(trx, approval, row.id));
      return view(await ops.get(ctx.db, 'import', id));
    },

    /** One execution step (advance, site_import_resume); a finished import is answered as it is. */
    async advance(actor: Actor, id: string, approvalOpens = false): Promise<ImportView> {
      const row = await load(actor, id, 'transfer:execute', approvalOpens);
      if (row.state === 'executing') await execution.step(id);
      return view(await ops.get(ctx.db, 'import', id));
    },

    async cancel(actor: Actor, id: string): Promise<ImportView> {
      const row = await load(actor, id, 'transfer:execute');
      if (!CANCELLABLE.includes(row.state)) {
        throw new CmsError('INVALID_STATE', `A ${row.state} import cannot be cancelled`, { state: row.state });
      }
      await ops.update(ctx.db, row, {
        state: 'cancelled',
        completed_at: ops.now(),
        lease_token: null,
        lease_expires_at: null,
      });
      return view(await ops.get(ctx.db, 'import', id));
    },

    async abandon(actor: Actor, id: string): Promise<ImportView> {
      const row = await load(actor, id, 'transfer:execute');
      if (row.state !== 'failed' && row.state !== 'cancelled') {
        throw new CmsError(
          'INVALID_STATE',
          `Only a failed or cancelled import can be abandoned; this one is ${row.state}`,
          {
            state: row.state,
          },
        );
      }
      if (row.lease_expires_at && row.lease_expires_at > ops.now()) {
        throw new CmsError('CONFLICT', 'A step of this import is still running; try again in a minute');
      }
      const cursor = readExecuteCursor(row.cursor);
      const held = (await gate.hold()) === row.id;
      if (held && cursor) await undo.rollback(row.id, cursor);
      await ctx.db.transaction().execute(async (trx) => {
        await ops.update(trx, row, { state: 'abandoned', stage: null });
        await trx.deleteFrom('_cms_meta').where('key', '=', HOLD_KEY).where('value', '=', row.id).execute();
      });
      gate.forget();
      await ctx.bus.publish('transfer');
      await removeOwned(row.id);
      return view(await ops.get(ctx.db, 'import', id));
    },

    async receipt(actor: Actor, id: string, approvalOpens = false) {
      const row = await load(actor, id, 'any', approvalOpens);
      if (row.state !== 'complete' || !row.receipt) {
        throw new CmsError('INVALID_STATE', `The receipt is written when the import completes; it is ${row.state}`, {
          state: row.state,
        });
      }
      return JSON.parse(row.receipt) as Receipt;
    },

    /** Step executing imports in the background (the worker). */
    step: execution.step,
  };
}

export type ImportsApi = ReturnType<typeof importsApi>;

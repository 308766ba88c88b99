import { z } from 'zod';
import { systemActor } from '../../auth/actor.js';
import { CmsError, isCmsError, knownFailure } from '../../core/errors.js';
import { sha256Hex } from '../../core/ids.js';
import type { Logger } from '../../core/log.js';
import type { Kdb } from '../../db/connect.js';
import { dyn } from '../content/rows.js';
import { COLUMN_KIND } from '../fields/types.js';
import type { RepairProgress } from '../media-usage/index.js';
import { bumpRulesVersion } from '../redirects/cache.js';
import { createEntryTable, createFieldIndex } from '../schema/ddl.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { bumpSchemaVersion } from '../schema/snapshot.js';
import { recountEntries } from '../taxonomies/counts.js';
import type { TransferDeps } from './deps.js';
import { STEP_MS } from './export.js';
import { HOLD_KEY } from './gate.js';
import type { Plan } from './import-plan.js';
import { recordWriter, type WriteContext, type WriteState } from './import-write.js';
import { MEDIA_FILE_KIND } from './manifest.js';
import type { OperationRow } from './operations.js';

/**
 * Executing a planned import, one bounded step per call: the records, file
 * by file in package order (each file in one transaction with the cursor, so
 * a crash resumes at the file it was writing), entry tables created once the
 * schema records are in, then what the site derives from content (term
 * counts, search indexes, the media usage index), then the receipt.
 */
export interface ExecuteServices {
  search: { rebuild(actor: typeof systemActor, slug: string): Promise<{ nextRequestInMs: number | null }> };
  mediaUsage: {
    repairStep(
      actor: typeof systemActor,
      slug: string,
      progress: RepairProgress | null,
      budgetMs: number,
    ): Promise<RepairProgress>;
  };
}

/** Kinds written before the entry tables exist (the tables are made from them). */
const SCHEMA_KINDS = new Set([
  'settings',
  'users',
  'allowedDomains',
  'collections',
  'fields',
  'blockTypes',
  'blockTypeVersions',
  'relations',
]);

const DERIVED_TASKS = ['terms', 'search', 'usage'] as const;

const CursorSchema = z.object({
  phase: z.enum(['records', 'derived']),
  position: z.number().int().min(0),
  tablesCreated: z.boolean(),
  task: z.number().int().min(0),
  collection: z.number().int().min(0),
  after: z.string().nullable(),
  /** The media usage rebuild of the current collection, between steps. */
  usage: z.custom<RepairProgress>().nullable().optional(),
  state: z.custom<WriteState>(),
  warnings: z.array(z.object({ code: z.string(), message: z.string(), count: z.number().optional() })),
  startedAt: z.string(),
});
export type ExecuteCursor = z.infer<typeof CursorSchema>;

export function initialCursor(startedAt: string): ExecuteCursor {
  return {
    phase: 'records',
    position: 0,
    tablesCreated: false,
    task: 0,
    collection: 0,
    after: null,
    state: { written: {}, dropped: {}, createdUsers: [], settingsBefore: {}, domainsAdded: [] },
    warnings: [],
    startedAt,
  };
}

export function readExecuteCursor(text: string | null): ExecuteCursor | null {
  if (!text) return null;
  const parsed = CursorSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

export const emptySnapshot = (): SchemaSnapshot => ({
  version: 0,
  collections: new Map(),
  collectionsById: new Map(),
  relations: new Map(),
  relationsById: new Map(),
  blockTypes: new Map(),
});

/** What a complete import wrote, mapped and left out; its digest covers the rest of it. */
export function receiptOf(op: OperationRow, cursor: ExecuteCursor, plan: Plan, completedAt: string) {
  const body = {
    importId: op.id,
    packageDigest: plan.packageDigest,
    planDigest: plan.planDigest,
    source: plan.source,
    startedAt: cursor.startedAt,
    completedAt,
    records: cursor.state.written,
    dropped: cursor.state.dropped,
    principals: {
      mapped: plan.principals.items.filter((p) => p.mappedUserId !== null).length,
      created: cursor.state.createdUsers.length,
    },
    media: { count: cursor.state.written.media ?? 0, bytes: plan.sizes.mediaBytes },
    decisions: { title: plan.decisions.title, tagline: plan.decisions.tagline },
    transformations: plan.transformations,
    warnings: [
      ...plan.warnings.items,
      ...Object.entries(cursor.state.dropped).map(([kind, count]) => ({
        code: 'records_dropped',
        message: `Records of ${kind} that pointed at rows not in the package were left out`,
        kind,
        count,
      })),
      ...cursor.warnings,
    ],
  };
  return { ...body, receiptDigest: `sha256:${sha256Hex(JSON.stringify(body))}` };
}

export type Receipt = ReturnType<typeof receiptOf>;

/** A record file that cannot be written fails the import with its path and the reason. */
async function inFile<T>(log: Logger, path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const known = knownFailure(err);
    if (known) throw new CmsError(known.code, `${path}: ${known.message}`, { ...known.details, path });
    // What the database said stays in the log; the import says which file it was.
    log.error({ err, path }, 'a package file could not be written');
    throw new CmsError('INTERNAL_ERROR', `${path}: the database refused a record of this file`, { path });
  }
}

export function executeOps(
  deps: TransferDeps,
  services: ExecuteServices,
  removePackageObjects: (operationId: string) => Promise<void>,
) {
  const { ctx, ops, storage, schema } = deps;

  /** Entry tables (and their field indexes) for the collections written so far; the schema listeners are told. */
  async function createTables(trx: Kdb): Promise<void> {
    const snap = await schema.cache.fresh(trx);
    for (const c of snap.collections.values()) {
      const columns = c.fields.flatMap((f) => [
        ...(f.column ? [{ name: f.column, kind: COLUMN_KIND[f.type] }] : []),
        ...(f.retiredColumn ? [{ name: f.retiredColumn, kind: 'text' as const }] : []),
      ]);
      await createEntryTable(trx, ctx.dialect, c.table, columns);
      for (const f of c.fields) {
        if (!f.column) continue;
        if (f.indexed) await createFieldIndex(trx, ctx.dialect, c.table, f.id, f.column, 'indexed');
        if (f.unique) await createFieldIndex(trx, ctx.dialect, c.table, f.id, f.column, 'unique');
      }
    }
    if (schema.hooks.active) await schema.hooks.run(trx, { before: emptySnapshot(), after: snap, actor: systemActor });
    await bumpSchemaVersion(trx);
  }

  /** The next record file after `position` (media bytes are taken with their records). */
  async function nextRecordFile(id: string, position: number, db: Kdb = ctx.db) {
    let after = position;
    for (;;) {
      const page = await deps.files.page(id, after, 50, db);
      const file = page.find((f) => f.kind !== MEDIA_FILE_KIND);
      if (file) return file;
      if (page.length < 50) return null;
      after = page[page.length - 1].position;
    }
  }

  /** What the record writer needs inside one transaction. */
  async function writeContext(trx: Kdb, op: OperationRow, plan: Plan): Promise<WriteContext> {
    return {
      trx,
      dialect: ctx.dialect,
      storage,
      config: ctx.config,
      decisions: plan.decisions,
      principals: new Set(plan.principals.items.map((p) => p.id)),
      snapshot: await schema.cache.fresh(trx),
      now: ops.now(),
      mediaKeys: async (paths) => {
        const rows = paths.length
          ? await trx
              .selectFrom('_cms_transfer_files')
              .select(['path', 'storage_key'])
              .where('operation_id', '=', op.id)
              .where('path', 'in', paths)
              .where('storage_key', 'is not', null)
              .execute()
          : [];
        // The library takes these objects over: the import no longer removes them.
        if (rows.length) {
          await trx
            .updateTable('_cms_transfer_files')
            .set({ owned: 0 })
            .where('operation_id', '=', op.id)
            .where(
              'path',
              'in',
              rows.map((r) => r.path),
            )
            .execute();
        }
        return new Map(rows.map((r) => [r.path, r.storage_key as string]));
      },
    };
  }

  /**
   * The schema's records and the entry tables made from them, in one
   * transaction: no reader ever sees a collection whose table is not there.
   */
  async function writeSchema(op: OperationRow, cursor: ExecuteCursor, plan: Plan): Promise<void> {
    const writer = recordWriter(cursor.state);
    await ctx.db.transaction().execute(async (trx) => {
      for (;;) {
        const file = await nextRecordFile(op.id, cursor.position, trx);
        if (!file || !SCHEMA_KINDS.has(file.kind)) break;
        const w = await writeContext(trx, op, plan);
        await inFile(ctx.log, file.path, () => writer.writeFile(w, file));
        cursor.position = file.position;
      }
      await createTables(trx);
      cursor.tablesCreated = true;
      await checkpoint(trx, op, cursor);
    });
    await ctx.bus.publish('schema');
  }

  async function writeRecords(op: OperationRow, cursor: ExecuteCursor, plan: Plan): Promise<boolean> {
    if (!cursor.tablesCreated) {
      await writeSchema(op, cursor, plan);
      return true;
    }
    const file = await nextRecordFile(op.id, cursor.position);
    if (!file) {
      cursor.phase = 'derived';
      return true;
    }
    const writer = recordWriter(cursor.state);
    await inFile(ctx.log, file.path, () =>
      ctx.db.transaction().execute(async (trx) => {
        await writer.writeFile(await writeContext(trx, op, plan), file);
        cursor.position = file.position;
        await checkpoint(trx, op, cursor);
      }),
    );
    return true;
  }

  /** One unit of derived work: a page of term counts, a search rebuild step, one collection's media usage. */
  async function derive(op: OperationRow, cursor: ExecuteCursor): Promise<boolean> {
    const task = DERIVED_TASKS[cursor.task];
    if (!task) return false;
    const snap = await schema.snapshot();
    const collections = [...snap.collections.values()].sort((a, b) => a.slug.localeCompare(b.slug));
    const c = collections[cursor.collection];
    const nextCollection = () => {
      cursor.collection += 1;
      cursor.after = null;
    };
    if (!c) {
      cursor.task += 1;
      cursor.collection = 0;
      cursor.after = null;
    } else if (task === 'terms') {
      await ctx.db.transaction().execute(async (trx) => {
        let q = dyn(trx).selectFrom(c.table).select('id').orderBy('id').limit(500);
        if (cursor.after) q = q.where('id', '>', cursor.after);
        const ids = ((await q.execute()) as Array<{ id: string }>).map((r) => r.id);
        await recountEntries(trx, c, ids);
        if (ids.length < 500) nextCollection();
        else cursor.after = ids[ids.length - 1];
      });
    } else if (task === 'search') {
      if (!c.supports.includes('search')) nextCollection();
      else if ((await services.search.rebuild(systemActor, c.slug)).nextRequestInMs === null) nextCollection();
    } else {
      try {
        const progress = await services.mediaUsage.repairStep(systemActor, c.slug, cursor.usage ?? null, STEP_MS / 2);
        cursor.usage = progress.done ? null : progress;
        if (progress.done && progress.result.status !== 'complete') {
          cursor.warnings.push({
            code: 'media_usage_incomplete',
            message: `The media usage index of "${c.slug}" is ${progress.result.status}; run a repair from the media usage page`,
          });
        }
        if (progress.done) nextCollection();
      } catch (err) {
        // Tracking off on this site (an upgraded database not yet activated): nothing to index.
        if (!isCmsError(err) || err.code !== 'INVALID_STATE') throw err;
        nextCollection();
      }
    }
    await ctx.db.transaction().execute((trx) => checkpoint(trx, op, cursor));
    return true;
  }

  async function checkpoint(trx: Kdb, op: OperationRow, cursor: ExecuteCursor): Promise<void> {
    const done = Object.values(cursor.state.written).reduce((n, c) => n + c, 0);
    const progress = { ...(JSON.parse(op.progress) as { total: number }), done, records: done };
    const result = await trx
      .updateTable('_cms_transfer_operations')
      .set({
        cursor: JSON.stringify(cursor),
        stage: cursor.phase,
        progress: JSON.stringify(progress),
        lease_expires_at: new Date(ctx.clock.now().getTime() + 60_000).toISOString(),
        updated_at: ops.now(),
      })
      .where('id', '=', op.id)
      .where('lease_token', '=', op.lease_token)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new CmsError('CONFLICT', 'The import step was taken over');
  }

  /** Close a complete import: the receipt, the hold lifted, the package's record files removed. */
  async function finish(op: OperationRow, cursor: ExecuteCursor, plan: Plan): Promise<void> {
    const completedAt = ops.now();
    const receipt = receiptOf(op, cursor, plan, completedAt);
    await ctx.db.transaction().execute(async (trx) => {
      await bumpRulesVersion(trx);
      const written = Object.values(cursor.state.written).reduce((n, c) => n + c, 0);
      const ok = await ops.release(trx, op, {
        state: 'complete',
        stage: null,
        // Users mapped to this site's are counted in the plan but not written: the total is what was.
        progress: JSON.stringify({ done: written, total: written, records: written }),
        cursor: JSON.stringify(cursor),
        receipt: JSON.stringify(receipt),
        completed_at: completedAt,
      });
      if (!ok) throw new CmsError('CONFLICT', 'The import step was taken over');
      await trx.deleteFrom('_cms_meta').where('key', '=', HOLD_KEY).where('value', '=', op.id).execute();
    });
    await ctx.bus.publish('transfer');
    await ctx.bus.publish('schema');
    await removePackageObjects(op.id);
  }

  /** One step: work for about a second, then hand the lease back (or fail the import, which keeps the hold). */
  async function step(id: string): Promise<void> {
    const leased = await ops.claim('import', id, ['executing']);
    if (!leased) return;
    try {
      const cursor = readExecuteCursor(leased.cursor);
      const plan = JSON.parse(leased.plan as string) as Plan;
      if (!cursor) throw new CmsError('INVALID_STATE', 'The import lost its place; abandon it and start again');
      const began = Date.now();
      let more = true;
      while (more && Date.now() - began < STEP_MS) {
        more = cursor.phase === 'records' ? await writeRecords(leased, cursor, plan) : await derive(leased, cursor);
      }
      if (!more) {
        await finish(leased, cursor, plan);
        return;
      }
      await ctx.db.transaction().execute(async (trx) => {
        if (!(await ops.release(trx, leased, {}))) throw new CmsError('CONFLICT', 'The import step was taken over');
      });
    } catch (err) {
      const known = isCmsError(err);
      if (!known) ctx.log.error({ err, operation: id }, 'transfer import step failed');
      await ctx.db.transaction().execute(async (trx) => {
        await ops.release(trx, leased, {
          state: 'failed',
          error_code: known ? err.code : 'INTERNAL_ERROR',
          error_message: known ? err.message : 'The import stopped on an unexpected error',
          completed_at: ops.now(),
        });
      });
    }
  }

  return { step };
}

export type ExecuteOps = ReturnType<typeof executeOps>;

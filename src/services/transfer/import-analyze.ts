import { sql } from 'kysely';
import { z } from 'zod';
import { CmsError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import { migrations } from '../../db/migrations/index.js';
import { HEAD_BYTES } from '../media/staging.js';
import { storedMediaBytesProblem } from '../media/stored.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { buildSnapshot, type SchemaRows } from '../schema/snapshot.js';
import { storedSetting } from '../settings/store.js';
import type { TransferDeps } from './deps.js';
import { STEP_MS } from './export.js';
import type { FileRow } from './files.js';
import { readHold } from './gate.js';
import {
  type CountedItem,
  type Decisions,
  type DecisionsInput,
  decide,
  type Facts,
  makePlan,
  type Plan,
  type TargetFacts,
} from './import-plan.js';
import type { UploadOps } from './import-upload.js';
import { ENTRIES_KIND, ENTRY_USER_COLUMNS, recordKind } from './kinds.js';
import { type Manifest, MEDIA_FILE_KIND, mediaPath } from './manifest.js';
import type { OperationRow } from './operations.js';
import { type ColumnShapes, kindColumns } from './parts.js';
import { checkRecord, entryColumns } from './record-check.js';
import { BadRecord, badRecord, readRecords } from './records.js';

/**
 * Analysis: read every record file of the package once (in steps), count
 * records by kind, collect the package's users and how many records name
 * each, note columns this release does not have; then compare with this
 * site and make the plan. Later calls with decisions only remake the plan.
 */
const CursorSchema = z.object({
  position: z.number().int().min(0),
  facts: z.custom<Facts>(),
  /** The package's schema records read so far: its entries and revisions are judged against them. */
  schema: z.custom<SchemaRows>(),
});
type Cursor = z.infer<typeof CursorSchema>;

/** Tables that must be empty for an import (users, settings and allowed domains may exist). */
const OCCUPYING: ReadonlyArray<[string, string]> = [
  ['collections', '_cms_collections'],
  ['blockTypes', '_cms_block_types'],
  ['taxonomies', '_cms_taxonomies'],
  ['terms', '_cms_terms'],
  ['media', '_cms_media'],
  ['mediaFolders', '_cms_media_folders'],
  ['bylines', '_cms_bylines'],
  ['menus', '_cms_menus'],
  ['sections', '_cms_sections'],
  ['widgetAreas', '_cms_widget_areas'],
  ['redirects', '_cms_redirects'],
  ['comments', '_cms_comments'],
];

/** What this site holds of the kinds an import needs empty, by kind (empty: a site a package may import into). */
export async function occupiedKinds(db: Kdb): Promise<Record<string, number>> {
  const occupied: Record<string, number> = {};
  for (const [kind, table] of OCCUPYING) {
    const row = await db
      .selectFrom(table as '_cms_collections')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst();
    const n = Number(row?.n ?? 0);
    if (n > 0) occupied[kind] = n;
  }
  return occupied;
}

function emptyFacts(): Facts {
  return {
    counts: {},
    principals: [],
    refs: {},
    unknownColumns: {},
    problems: [],
    problemsOmitted: 0,
    transformed: [],
    noted: [],
    domains: [],
    searchCollections: 0,
  };
}

const emptySchemaRows = (): SchemaRows => ({
  collections: [],
  fields: [],
  relations: [],
  blockTypes: [],
  versions: [],
});

/** The package's schema kinds and where their rows go in the analysis cursor. */
const SCHEMA_ROWS: Readonly<Record<string, keyof SchemaRows>> = {
  collections: 'collections',
  fields: 'fields',
  relations: 'relations',
  blockTypes: 'blockTypes',
  blockTypeVersions: 'versions',
};

/** Most refused records a plan lists one by one; the rest are counted in one more blocker. */
const MAX_RECORD_PROBLEMS = 200;

function bumpItem(facts: Facts, key: 'transformed' | 'noted', code: string, kind: string) {
  // Analyses begun by an earlier release have neither list yet.
  const list: CountedItem[] = facts[key] ?? [];
  facts[key] = list;
  const item = list.find((i) => i.code === code && i.kind === kind);
  if (item) item.count += 1;
  else list.push({ code, kind, count: 1 });
}

export function analyzeOps(deps: TransferDeps, upload: UploadOps) {
  const { ctx, ops, storage } = deps;
  const known = new Set(migrations.map((m) => m.name));

  async function targetFacts(db: Kdb, op: OperationRow, manifest: Manifest): Promise<TargetFacts> {
    const occupied = await occupiedKinds(db);
    const users = await db.selectFrom('_cms_users').select(['id', 'email']).execute();
    const domains = await db.selectFrom('_cms_allowed_domains').select('domain').execute();
    const hold = await readHold(db);
    const [title, tagline] = await Promise.all([storedSetting(db, 'title'), storedSetting(db, 'tagline')]);
    return {
      occupied,
      usersByEmail: new Map(users.map((u) => [u.email.toLowerCase(), u.id])),
      userIds: new Set(users.map((u) => u.id)),
      domains: new Set(domains.map((d) => d.domain)),
      importActive: hold !== null && hold !== op.id ? hold : null,
      missingFiles: await upload.missingCount(op.id),
      knownSchema: known.has(manifest.schemaVersion),
      title: typeof title === 'string' ? title : null,
      tagline: typeof tagline === 'string' ? tagline : null,
    };
  }

  /** Columns of a system table, read once per step. */
  function columnCache(db: Kdb) {
    const cache = new Map<string, ColumnShapes>();
    return async (table: string) => {
      let cols = cache.get(table);
      if (!cols) {
        cols = await kindColumns(db, ctx.dialect, table);
        cache.set(table, cols);
      }
      return cols;
    };
  }

  function noteUnknown(facts: Facts, kind: string, column: string) {
    const list = facts.unknownColumns[kind] ?? [];
    facts.unknownColumns[kind] = list;
    if (!list.includes(column) && list.length < 100) list.push(column);
  }

  /**
   * A media record's bytes, judged as an upload's (their type must not
   * contradict the record's). Uploaded files never change: their digest was
   * checked as they came in, so the import writes what was judged here.
   */
  async function mediaBytesProblem(file: FileRow, row: Record<string, unknown>): Promise<string | null> {
    const bytes = await deps.files.get(file.operation_id, mediaPath(String(row.id), String(row.storage_key)));
    if (!bytes?.storage_key) return null;
    const read = await storage.read(bytes.storage_key, { start: 0, end: HEAD_BYTES - 1 });
    if (!read) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of read.body) chunks.push(chunk as Buffer);
    return storedMediaBytesProblem(row, Buffer.concat(chunks), read.size <= HEAD_BYTES);
  }

  function refused(facts: Facts, err: BadRecord, kind: string) {
    if (facts.problems.length < MAX_RECORD_PROBLEMS) {
      facts.problems.push({ code: 'invalid_record', message: err.message, kind });
    } else facts.problemsOmitted = (facts.problemsOmitted ?? 0) + 1;
  }

  /** Read one record file into the facts; each record is judged as the import will judge it. */
  async function readFile(
    file: FileRow,
    cursor: Cursor,
    columnsOf: (table: string) => Promise<ColumnShapes>,
    snapshot: () => SchemaSnapshot,
  ) {
    const { facts } = cursor;
    const kind = recordKind(file.kind);
    const isEntries = file.kind === ENTRIES_KIND;
    const userColumns = isEntries ? ENTRY_USER_COLUMNS : (kind?.users ?? []);
    const columns = isEntries || !kind ? null : await columnsOf(kind.table);
    const known = isEntries ? entryColumns(snapshot(), file.collection) : columns;
    let n = 0;
    for await (const row of readRecords(storage, file)) {
      n += 1;
      const verdict = checkRecord(file, row, { config: ctx.config, columns, snapshot: snapshot() });
      const problem = verdict.problem ?? (file.kind === 'media' ? await mediaBytesProblem(file, row) : null);
      if (problem) {
        refused(facts, badRecord(file.path, n, problem), file.kind);
        continue;
      }
      if (verdict.transformation) bumpItem(facts, 'transformed', verdict.transformation, file.kind);
      if (verdict.note) bumpItem(facts, 'noted', verdict.note, file.kind);
      for (const col of userColumns) {
        const id = row[col];
        if (typeof id === 'string') facts.refs[id] = (facts.refs[id] ?? 0) + 1;
      }
      for (const col of Object.keys(row)) {
        if (known && !known.has(col)) noteUnknown(facts, isEntries ? `entries:${file.collection}` : file.kind, col);
      }
      const schemaList = SCHEMA_ROWS[file.kind];
      if (schemaList) (cursor.schema[schemaList] as unknown[]).push(row);
      switch (file.kind) {
        case 'users':
          facts.principals.push({
            id: String(row.id),
            name: typeof row.name === 'string' ? row.name : null,
            email: String(row.email ?? ''),
            role: Number(row.role),
            disabled: Number(row.disabled) === 1,
          });
          break;
        case 'allowedDomains':
          if (facts.domains.length < 10_000) facts.domains.push(String(row.domain));
          break;
        case 'searchSettings':
          facts.searchCollections += 1;
          break;
      }
    }
    facts.counts[file.kind] = (facts.counts[file.kind] ?? 0) + n;
    if (file.records !== null && Number(file.records) !== n) {
      facts.problems.push({
        code: 'records_mismatch',
        message: `${file.path} holds ${n} records; the manifest says ${file.records}`,
        kind: file.kind,
      });
    }
  }

  /** The plan for the facts and decisions, against this site as it is now. */
  async function plan(op: OperationRow, facts: Facts, input: DecisionsInput | undefined): Promise<Plan> {
    const manifest = JSON.parse(op.manifest as string) as Manifest;
    const target = await targetFacts(ctx.db, op, manifest);
    const previous = op.decisions ? (JSON.parse(op.decisions) as Decisions) : null;
    const decisions = decide(previous, input, facts, target);
    return makePlan(manifest, op.package_digest as string, facts, target, decisions);
  }

  async function savePlan(trx: Kdb, op: OperationRow, facts: Facts, p: Plan, leased: boolean) {
    const files = JSON.parse(op.progress) as { total: number };
    const set = {
      state: 'planned',
      stage: null,
      cursor: null,
      progress: JSON.stringify({ done: files.total, total: files.total }),
      totals: JSON.stringify(facts),
      plan: JSON.stringify(p),
      plan_digest: p.planDigest,
      decisions: JSON.stringify(p.decisions),
    };
    if (leased) {
      if (!(await ops.release(trx, op, set))) throw new CmsError('CONFLICT', 'The analysis was taken over');
    } else {
      await ops.update(trx, op, set);
    }
  }

  /** One analysis step: record files until the time is up, then the plan. */
  async function step(id: string): Promise<void> {
    const leased = await ops.claim('import', id, ['analyzing']);
    if (!leased) return;
    try {
      const cursor = CursorSchema.parse(JSON.parse(leased.cursor ?? 'null'));
      const began = Date.now();
      const columnsOf = columnCache(ctx.db);
      // The package's schema as a snapshot, made again once more schema records are read.
      let built: { rows: number; snap: SchemaSnapshot } | null = null;
      const snapshot = () => {
        const rows = Object.values(cursor.schema).reduce((sum, list) => sum + list.length, 0);
        if (!built || built.rows !== rows) built = { rows, snap: buildSnapshot(0, cursor.schema) };
        return built.snap;
      };
      const missing = await upload.missingCount(id);
      let done = missing > 0;
      let read = 0;
      while (!done && Date.now() - began < STEP_MS) {
        const page = await deps.files.page(id, cursor.position, 20);
        const next = page.find((f) => f.kind !== MEDIA_FILE_KIND);
        if (!next) {
          if (page.length === 0) done = true;
          else cursor.position = page[page.length - 1].position;
          continue;
        }
        try {
          await readFile(next, cursor, columnsOf, snapshot);
        } catch (err) {
          if (!(err instanceof BadRecord)) throw err;
          refused(cursor.facts, err, next.kind);
        }
        cursor.position = next.position;
        read += 1;
      }
      if (!done) {
        const progress = JSON.parse(leased.progress) as { done: number; total: number };
        progress.done += read;
        await ctx.db.transaction().execute(async (trx) => {
          if (
            !(await ops.release(trx, leased, { cursor: JSON.stringify(cursor), progress: JSON.stringify(progress) }))
          ) {
            throw new CmsError('CONFLICT', 'The analysis was taken over');
          }
        });
        return;
      }
      const p = await plan(leased, cursor.facts, undefined);
      await ctx.db.transaction().execute((trx) => savePlan(trx, leased, cursor.facts, p, true));
    } catch (err) {
      await ops.drop(leased);
      throw err;
    }
  }

  return {
    /**
     * Start (or restart) the analysis of an import whose manifest is in, or
     * remake the plan of an analysed one with new decisions.
     */
    async analyze(op: OperationRow, input: DecisionsInput | undefined): Promise<void> {
      if (op.manifest === null) {
        throw new CmsError('INVALID_STATE', 'Upload manifest.json before analysing: it says what the package holds');
      }
      if (op.state === 'planned') {
        const facts = JSON.parse(op.totals as string) as Facts;
        const p = await plan(op, facts, input);
        await ctx.db.transaction().execute((trx) => savePlan(trx, op, facts, p, false));
        return;
      }
      if (input !== undefined) {
        throw new CmsError('INVALID_STATE', 'Decisions are taken on a plan: finish the analysis first', {
          state: op.state,
        });
      }
      if (op.state === 'uploading') {
        const cursor: Cursor = { position: 0, facts: emptyFacts(), schema: emptySchemaRows() };
        const files = await ctx.db
          .selectFrom('_cms_transfer_files')
          .select(sql<number>`count(*)`.as('n'))
          .where('operation_id', '=', op.id)
          .where('kind', '!=', MEDIA_FILE_KIND)
          .executeTakeFirst();
        await ops.update(ctx.db, op, {
          state: 'analyzing',
          stage: 'reading',
          cursor: JSON.stringify(cursor),
          // Record files read of all of them.
          progress: JSON.stringify({ done: 0, total: Number(files?.n ?? 0) }),
        });
      } else if (op.state !== 'analyzing') {
        throw new CmsError('INVALID_STATE', `An import is analysed before it executes; this one is ${op.state}`, {
          state: op.state,
        });
      }
      await step(op.id);
    },
    plan,
    targetFacts,
  };
}

export type AnalyzeOps = ReturnType<typeof analyzeOps>;

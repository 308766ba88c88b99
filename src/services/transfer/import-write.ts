import type { CmsConfig } from '../../core/config.js';
import type { Kdb } from '../../db/connect.js';
import { type ColumnKind, type DialectName, encodeValue } from '../../db/dialect.js';
import type { Storage } from '../../storage/types.js';
import { dyn } from '../content/rows.js';
import { COLUMN_KIND } from '../fields/types.js';
import { SYSTEM_COLUMN_NAMES } from '../schema/ddl.js';
import type { SchemaSnapshot } from '../schema/model.js';
import type { FileRow } from './files.js';
import type { Decisions } from './import-plan.js';
import { ENTRIES_KIND, ENTRY_USER_COLUMNS, type Parent, type RecordKind, recordKind } from './kinds.js';
import { mediaPath } from './manifest.js';
import { type ColumnShapes, kindColumns } from './parts.js';
import { type CheckContext, checkRecord } from './record-check.js';
import { badRecord, readRecords } from './records.js';

/**
 * Writing one record file of a package into the site, inside the caller's
 * transaction: each record is fitted to this site (user references mapped by
 * the plan's decisions, columns this release lacks dropped, entry values
 * encoded for this database, references to rows that are not there dropped
 * or cleared), then inserted in batches.
 */
export interface WriteState {
  written: Record<string, number>;
  dropped: Record<string, number>;
  createdUsers: string[];
  /** Settings the import replaced, with their values before (null: unset), for an abandon to restore. */
  settingsBefore: Record<string, string | null>;
  domainsAdded: string[];
}

export interface WriteContext {
  trx: Kdb;
  dialect: DialectName;
  storage: Storage;
  config: CmsConfig;
  decisions: Decisions;
  /** Package user IDs (principals). */
  principals: ReadonlySet<string>;
  snapshot: SchemaSnapshot;
  /** Package file path → the uploaded object's storage key (media bytes). */
  mediaKeys: (paths: string[]) => Promise<Map<string, string>>;
  now: string;
}

/** Rows per insert statement: SQLite binds at most 32,766 values; wide entry tables stay well below. */
const INSERT_ROWS = 100;

function bump(map: Record<string, number>, kind: string, by = 1) {
  if (by) map[kind] = (map[kind] ?? 0) + by;
}

export function recordWriter(state: WriteState) {
  const columns = new Map<string, ColumnShapes>();

  async function columnsOf(w: WriteContext, table: string): Promise<ColumnShapes> {
    let shapes = columns.get(table);
    if (!shapes) {
      shapes = await kindColumns(w.trx, w.dialect, table);
      columns.set(table, shapes);
    }
    return shapes;
  }

  /** The target user a package user's records are attributed to (unknown users: nobody). */
  function userFor(w: WriteContext, id: unknown): string | null {
    if (typeof id !== 'string' || !w.principals.has(id)) return null;
    const mapped = w.decisions.principals[id];
    return mapped === undefined || mapped === null ? id : mapped;
  }

  /** Drop (or clear) references to rows the site does not hold. */
  async function keepParents(
    w: WriteContext,
    parents: readonly Parent[],
    rows: Record<string, unknown>[],
    kind: string,
  ) {
    let out = rows;
    for (const p of parents) {
      const values = [...new Set(out.map((r) => r[p.column]).filter((v): v is string => typeof v === 'string'))];
      if (values.length === 0) continue;
      const found = new Set<string>();
      for (let i = 0; i < values.length; i += 500) {
        const hits = (await dyn(w.trx)
          .selectFrom(p.table)
          .select(`${p.key} as k`)
          .where(p.key, 'in', values.slice(i, i + 500))
          .execute()) as Array<{ k: string }>;
        for (const h of hits) found.add(h.k);
      }
      const next: Record<string, unknown>[] = [];
      for (const r of out) {
        const v = r[p.column];
        if (typeof v !== 'string' || found.has(v)) next.push(r);
        else if (p.missing === 'clear') next.push({ ...r, [p.column]: null });
        else bump(state.dropped, kind);
      }
      out = next;
    }
    return out;
  }

  async function insert(w: WriteContext, table: string, rows: Record<string, unknown>[]) {
    for (let i = 0; i < rows.length; i += INSERT_ROWS) {
      await dyn(w.trx)
        .insertInto(table)
        .values(rows.slice(i, i + INSERT_ROWS))
        .execute();
    }
  }

  /** Fit a batch of one system kind's records to this site. */
  async function fitKind(w: WriteContext, k: RecordKind, batch: Record<string, unknown>[]) {
    const known = await columnsOf(w, k.table);
    // Only the columns a package carries for its kind: the rest is this site's to fill.
    const carried = (col: string) => known.has(col) && (!k.columns || k.columns.includes(col));
    let rows = batch.map((r) => {
      const row: Record<string, unknown> = {};
      for (const [col, v] of Object.entries(r)) if (carried(col)) row[col] = v;
      for (const col of k.users ?? []) if (col in row) row[col] = userFor(w, row[col]);
      return row;
    });
    rows = await keepParents(w, k.parents ?? [], rows, k.kind);
    switch (k.kind) {
      case 'users':
        // Users mapped to one of this site's users are not created.
        rows = rows
          .filter((r) => w.decisions.principals[String(r.id)] === null)
          .map((r) => ({ ...r, last_sign_in_at: null }));
        state.createdUsers.push(...rows.map((r) => String(r.id)));
        break;
      case 'searchSettings':
        rows = rows.map((r) => ({
          collection_id: r.collection_id,
          tokenizer: r.tokenizer,
          weights: r.weights,
          generation: 0,
          build_done: 0,
          build_total: 0,
          updated_at: w.now,
        }));
        break;
      case 'media': {
        const keys = await w.mediaKeys(rows.map((r) => mediaPath(String(r.id), String(r.storage_key))));
        const kept: Record<string, unknown>[] = [];
        for (const r of rows) {
          const key = keys.get(mediaPath(String(r.id), String(r.storage_key)));
          if (key) kept.push({ ...r, storage_key: key });
          else bump(state.dropped, 'media');
        }
        rows = kept;
        break;
      }
    }
    return rows;
  }

  /** Entry values in this database's encoding; columns the collection does not have are dropped. */
  function fitEntries(w: WriteContext, collection: string, batch: Record<string, unknown>[]) {
    const c = w.snapshot.collections.get(collection);
    if (!c) {
      bump(state.dropped, ENTRIES_KIND, batch.length);
      return { table: null, rows: [] };
    }
    const kinds = new Map<string, ColumnKind>();
    for (const f of c.fields) {
      if (f.column) kinds.set(f.column, COLUMN_KIND[f.type]);
      if (f.retiredColumn) kinds.set(f.retiredColumn, 'text');
    }
    const rows = batch.map((r) => {
      const row: Record<string, unknown> = {};
      for (const [col, v] of Object.entries(r)) {
        if (SYSTEM_COLUMN_NAMES.has(col)) row[col] = v;
        else {
          const kind = kinds.get(col);
          if (kind) row[col] = encodeValue(w.dialect, kind, v);
        }
      }
      for (const col of ENTRY_USER_COLUMNS) if (col in row) row[col] = userFor(w, row[col]);
      return row;
    });
    return { table: c.table, rows };
  }

  async function writeBatch(w: WriteContext, file: FileRow, batch: Record<string, unknown>[]) {
    if (file.kind === ENTRIES_KIND) {
      const { table, rows } = fitEntries(w, file.collection ?? '', batch);
      if (table) await insert(w, table, rows);
      bump(state.written, ENTRIES_KIND, rows.length);
      return;
    }
    const k = recordKind(file.kind);
    if (!k) {
      bump(state.dropped, file.kind, batch.length);
      return;
    }
    const rows = await fitKind(w, k, batch);
    if (k.kind === 'settings') await writeSettings(w, rows);
    else if (k.kind === 'allowedDomains') await writeDomains(w, rows);
    else if (k.kind === 'searchSettings') await writeSearchSettings(w, rows);
    else await insert(w, k.table, rows);
    bump(state.written, k.kind, rows.length);
  }

  /** Package settings replace this site's, except the title and tagline when the plan keeps this site's. */
  async function writeSettings(w: WriteContext, rows: Record<string, unknown>[]) {
    for (const r of rows) {
      const key = String(r.key);
      if (
        (key === 'title' && w.decisions.title === 'target') ||
        (key === 'tagline' && w.decisions.tagline === 'target')
      )
        continue;
      const before = await w.trx.selectFrom('_cms_settings').select('value').where('key', '=', key).executeTakeFirst();
      if (!(key in state.settingsBefore)) state.settingsBefore[key] = before?.value ?? null;
      const value = String(r.value);
      await w.trx
        .insertInto('_cms_settings')
        .values({ key, value, updated_at: w.now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: w.now }))
        .execute();
    }
  }

  /** A domain this site already allows keeps its own rule. */
  async function writeDomains(w: WriteContext, rows: Record<string, unknown>[]) {
    for (const r of rows) {
      const result = await dyn(w.trx)
        .insertInto('_cms_allowed_domains')
        .values(r)
        .onConflict((oc: { column: (c: string) => { doNothing: () => unknown } }) => oc.column('domain').doNothing())
        .executeTakeFirst();
      if (Number(result?.numInsertedOrUpdatedRows ?? 0) > 0) state.domainsAdded.push(String(r.domain));
    }
  }

  /** The index a new collection got from the schema listeners takes the package's tokenizer and weights. */
  async function writeSearchSettings(w: WriteContext, rows: Record<string, unknown>[]) {
    for (const r of rows) {
      await w.trx
        .insertInto('_cms_search_collections')
        .values(r as never)
        .onConflict((oc) =>
          oc.column('collection_id').doUpdateSet({
            tokenizer: String(r.tokenizer),
            weights: String(r.weights),
            updated_at: w.now,
          }),
        )
        .execute();
    }
  }

  /**
   * Write every record of one file (batches of INSERT_ROWS), each judged by
   * the check the analysis applied: a record it refuses fails the import with
   * its file and line, so nothing the plan did not show is written. The
   * caller's transaction makes the file all or nothing.
   */
  async function writeFile(w: WriteContext, file: FileRow): Promise<void> {
    const k = recordKind(file.kind);
    const check: CheckContext = {
      config: w.config,
      columns: k ? await columnsOf(w, k.table) : null,
      snapshot: w.snapshot,
    };
    let batch: Record<string, unknown>[] = [];
    let n = 0;
    for await (const record of readRecords(w.storage, file)) {
      n += 1;
      const verdict = checkRecord(file, record, check);
      if (verdict.problem) throw badRecord(file.path, n, verdict.problem);
      batch.push(verdict.row);
      if (batch.length >= INSERT_ROWS * 5) {
        await writeBatch(w, file, batch);
        batch = [];
      }
    }
    if (batch.length) await writeBatch(w, file, batch);
  }

  return { writeFile };
}

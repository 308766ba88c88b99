import { sql } from 'kysely';
import { systemActor } from '../../auth/actor.js';
import type { Kdb } from '../../db/connect.js';
import { dyn } from '../content/rows.js';
import { bumpRulesVersion } from '../redirects/cache.js';
import { dropEntryTable } from '../schema/ddl.js';
import { bumpSchemaVersion } from '../schema/snapshot.js';
import type { TransferDeps } from './deps.js';
import type { FileRow } from './files.js';
import type { ExecuteCursor } from './import-execute.js';
import { ENTRIES_KIND, recordKind } from './kinds.js';
import { MEDIA_FILE_KIND } from './manifest.js';
import { readRecords } from './records.js';

/**
 * Undoing an import that failed or was cancelled after it began writing:
 * every row it wrote is deleted by its key, read again from the package's
 * own record files (children before parents), so a row someone else wrote
 * meanwhile stays; the collections it created go with their entry and search
 * tables (the schema listeners are told, as for a deleted collection); the
 * users it created are removed, the settings it replaced restored, the
 * domains it added removed, and the media objects the library took over from
 * it deleted.
 */

/** Kinds undone by other means than deleting their rows by key. */
// Search settings stay until the schema listeners have read them (they name the index tables to drop).
const SPECIAL = new Set(['settings', 'users', 'allowedDomains', 'collections', 'searchSettings', ENTRIES_KIND]);

/** Rows per delete statement (composite keys bind one value per key column). */
const DELETE_ROWS = 300;

/** Rows derived from an imported collection's entries. */
const DERIVED_BY_COLLECTION = [
  '_cms_term_counted',
  '_cms_term_counts',
  '_cms_media_usage',
  '_cms_media_usage_collections',
  '_cms_media_usage_work',
  '_cms_locks',
] as const;

export function rollbackOps(deps: TransferDeps) {
  const { ctx, storage, schema } = deps;

  /** Record files the import wrote (those up to its position), last first. */
  async function recordFiles(operationId: string, position: number): Promise<FileRow[]> {
    return ctx.db
      .selectFrom('_cms_transfer_files')
      .selectAll()
      .where('operation_id', '=', operationId)
      .where('kind', '!=', MEDIA_FILE_KIND)
      .where('position', '<=', position)
      .orderBy('position', 'desc')
      .execute();
  }

  /**
   * The records of a written file; null when storage has lost it, and then the
   * kind's table is emptied instead (it was empty before the import, and the
   * hold kept other writers out but for a moment at its start).
   */
  async function* recordsOf(f: FileRow): AsyncGenerator<Record<string, unknown>> {
    if (!f.storage_key || !(await storage.head(f.storage_key))) throw new LostFile();
    yield* readRecords(storage, f);
  }

  async function deleteKeys(trx: Kdb, table: string, key: readonly string[], rows: Record<string, unknown>[]) {
    for (let i = 0; i < rows.length; i += DELETE_ROWS) {
      const chunk = rows.slice(i, i + DELETE_ROWS);
      const cols = sql.join(key.map((k) => sql.ref(k)));
      const tuples = sql.join(chunk.map((r) => sql`(${sql.join(key.map((k) => sql.val(r[k])))})`));
      await sql`delete from ${sql.table(table)} where (${cols}) in (${tuples})`.execute(trx);
    }
  }

  async function rollback(operationId: string, cursor: ExecuteCursor): Promise<void> {
    const files = await recordFiles(operationId, cursor.position);
    let collectionIds: string[] | null = [];
    for (const f of files.filter((x) => x.kind === 'collections')) {
      try {
        for await (const r of recordsOf(f)) collectionIds?.push(String(r.id));
      } catch (err) {
        if (!(err instanceof LostFile)) throw err;
        collectionIds = null;
      }
    }
    const mediaKeys: string[] = [];
    await ctx.db.transaction().execute(async (trx) => {
      const before = await schema.cache.fresh(trx);
      const imported =
        collectionIds === null
          ? [...before.collections.values()]
          : collectionIds.flatMap((id) => {
              const c = before.collectionsById.get(id);
              return c ? [c] : [];
            });
      for (const f of files) {
        const k = recordKind(f.kind);
        if (!k || SPECIAL.has(f.kind)) continue;
        let batch: Record<string, unknown>[] = [];
        try {
          for await (const r of recordsOf(f)) {
            batch.push(r);
            if (batch.length >= DELETE_ROWS * 5) {
              await remove(trx, k.kind, k.table, k.key, batch);
              batch = [];
            }
          }
          if (batch.length) await remove(trx, k.kind, k.table, k.key, batch);
        } catch (err) {
          if (!(err instanceof LostFile)) throw err;
          await emptyKind(trx, k.kind, k.table);
        }
      }
      if (imported.length) {
        const ids = imported.map((c) => c.id);
        await trx.deleteFrom('_cms_relations').where('parent_collection_id', 'in', ids).execute();
        await trx.deleteFrom('_cms_relations').where('child_collection_id', 'in', ids).execute();
        await trx.deleteFrom('_cms_fields').where('collection_id', 'in', ids).execute();
        await trx.deleteFrom('_cms_collections').where('id', 'in', ids).execute();
        // The search index and the rows other domains keep per collection go as for a deleted collection.
        if (schema.hooks.active) {
          await schema.hooks.run(trx, { before, after: await schema.cache.fresh(trx), actor: systemActor });
        }
        for (const c of imported) await dropEntryTable(trx, c.table);
        // What the entries derived, and what the listeners queued for collections that are gone now.
        for (const table of [...DERIVED_BY_COLLECTION, '_cms_search_collections'] as const) {
          await trx
            .deleteFrom(table as '_cms_term_counts')
            .where('collection_id', 'in', ids)
            .execute();
        }
      }
      const { state } = cursor;
      for (const [key, value] of Object.entries(state.settingsBefore)) {
        if (value === null) await trx.deleteFrom('_cms_settings').where('key', '=', key).execute();
        else {
          await trx
            .updateTable('_cms_settings')
            .set({ value, updated_at: ctx.clock.now().toISOString() })
            .where('key', '=', key)
            .execute();
        }
      }
      for (let i = 0; i < state.domainsAdded.length; i += 500) {
        await trx
          .deleteFrom('_cms_allowed_domains')
          .where('domain', 'in', state.domainsAdded.slice(i, i + 500))
          .execute();
      }
      for (let i = 0; i < state.createdUsers.length; i += 500) {
        await trx
          .deleteFrom('_cms_users')
          .where('id', 'in', state.createdUsers.slice(i, i + 500))
          .execute();
      }
      await bumpSchemaVersion(trx);
      await bumpRulesVersion(trx);
    });
    await ctx.bus.publish('schema');
    for (const key of mediaKeys) await storage.delete(key);

    /** A kind whose written file storage lost: every row of its table goes (media with their objects). */
    async function emptyKind(trx: Kdb, kind: string, table: string) {
      if (kind === 'media') {
        const stored = await trx.selectFrom('_cms_media').select('storage_key').execute();
        mediaKeys.push(...stored.map((r) => r.storage_key));
      }
      await sql`delete from ${sql.table(table)}`.execute(trx);
    }

    /** Delete a batch of one kind's records by key; media rows remember their stored objects first. */
    async function remove(
      trx: Kdb,
      kind: string,
      table: string,
      key: readonly string[],
      rows: Record<string, unknown>[],
    ) {
      if (kind === 'media') {
        const ids = rows.map((r) => String(r.id));
        const stored = await dyn(trx).selectFrom('_cms_media').select('storage_key').where('id', 'in', ids).execute();
        mediaKeys.push(...(stored as Array<{ storage_key: string }>).map((s) => s.storage_key));
      }
      await deleteKeys(trx, table, key, rows);
    }
  }

  return { rollback };
}

/** A record file the import wrote that storage no longer has. */
class LostFile extends Error {}

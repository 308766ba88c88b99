import { systemActor } from '../../auth/actor.js';
import { bumpRulesVersion } from '../redirects/cache.js';
import { dropEntryTable, listEntryTables } from '../schema/ddl.js';
import { bumpSchemaVersion } from '../schema/snapshot.js';
import type { TransferDeps } from './deps.js';
import { type ExecuteCursor, emptySnapshot } from './import-execute.js';
import { RECORD_KINDS } from './kinds.js';

/**
 * Undoing an import that failed or was cancelled after it began writing. It
 * ran on a site without content (execute refuses anything else) and held the
 * site against every other write until now, so what the site holds besides
 * its users, settings and allowed domains is what the import wrote: entry
 * and search index tables are dropped and the content tables emptied; the
 * users it created are removed, the settings it replaced restored, the
 * domains it added removed. Media objects the library took over are deleted.
 */

/** Tables the media usage index, term counts and search settings derive, emptied with the content. */
const DERIVED_TABLES = [
  '_cms_term_counted',
  '_cms_term_counts',
  '_cms_media_usage',
  '_cms_media_usage_collections',
  '_cms_media_usage_work',
  '_cms_locks',
] as const;

const KEPT = new Set(['settings', 'users', 'allowedDomains']);

export function rollbackOps(deps: TransferDeps) {
  const { ctx, storage } = deps;

  async function rollback(cursor: ExecuteCursor): Promise<void> {
    const mediaKeys = await ctx.db.selectFrom('_cms_media').select('storage_key').execute();
    await ctx.db.transaction().execute(async (trx) => {
      // The schema listeners drop what hangs off each collection (search indexes first of all).
      const snap = await deps.schema.cache.fresh(trx);
      if (deps.schema.hooks.active) {
        await deps.schema.hooks.run(trx, { before: snap, after: emptySnapshot(), actor: systemActor });
      }
      for (const table of await listEntryTables(trx, ctx.dialect)) await dropEntryTable(trx, table);
      for (const table of DERIVED_TABLES) await trx.deleteFrom(table).execute();
      // Children before parents (the kinds are listed parents first).
      for (const k of [...RECORD_KINDS].reverse()) {
        if (KEPT.has(k.kind)) continue;
        await trx.deleteFrom(k.table as '_cms_comments').execute();
      }
      const { state } = cursor;
      for (const [key, value] of Object.entries(state.settingsBefore)) {
        if (value === null) await trx.deleteFrom('_cms_settings').where('key', '=', key).execute();
        else
          await trx
            .updateTable('_cms_settings')
            .set({ value, updated_at: ctx.clock.now().toISOString() })
            .where('key', '=', key)
            .execute();
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
    for (const { storage_key } of mediaKeys) await storage.delete(storage_key);
  }

  return { rollback };
}

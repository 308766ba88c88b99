import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { dyn } from '../content/rows.js';
import type { CollectionInfo } from '../schema/model.js';
import { CHECK_BATCH, type Check, type CheckEnv, type FindingSink } from './model.js';

/**
 * Rows that belong to an entry (or an entry's translation group) that no longer exists. A
 * permanent delete removes all of them in its transaction; one left behind is dead weight that
 * can surface again (a revision list, a comment count), so a repair deletes it.
 */
interface EntryOwned {
  table: string;
  what: string;
  /** The column naming the collection, and whether it holds the collection's ID or its slug. */
  collectionColumn: string;
  collectionKey: 'id' | 'slug';
  /** The column naming the owner, and the entry column it points at. */
  ownerColumn: string;
  entryColumn: 'id' | 'translation_group';
}

const ENTRY_OWNED: readonly EntryOwned[] = [
  {
    table: '_cms_revisions',
    what: 'revisions',
    collectionColumn: 'collection_id',
    collectionKey: 'id',
    ownerColumn: 'entry_id',
    entryColumn: 'id',
  },
  {
    table: '_cms_entry_bylines',
    what: 'byline credits',
    collectionColumn: 'collection_id',
    collectionKey: 'id',
    ownerColumn: 'entry_id',
    entryColumn: 'id',
  },
  {
    table: '_cms_entry_schedules',
    what: 'schedules',
    collectionColumn: 'collection_id',
    collectionKey: 'id',
    ownerColumn: 'entry_id',
    entryColumn: 'id',
  },
  {
    table: '_cms_locks',
    what: 'edit locks',
    collectionColumn: 'collection_id',
    collectionKey: 'id',
    ownerColumn: 'entry_id',
    entryColumn: 'id',
  },
  {
    table: '_cms_comments',
    what: 'comments',
    collectionColumn: 'collection',
    collectionKey: 'slug',
    ownerColumn: 'entry_id',
    entryColumn: 'id',
  },
  {
    table: '_cms_seo',
    what: 'SEO settings',
    collectionColumn: 'collection',
    collectionKey: 'slug',
    ownerColumn: 'entry_id',
    entryColumn: 'id',
  },
  {
    table: '_cms_content_terms',
    what: 'term assignments',
    collectionColumn: 'collection_id',
    collectionKey: 'id',
    ownerColumn: 'entry_group',
    entryColumn: 'translation_group',
  },
];

/** Owners (entry IDs or groups) named in `spec.table` for collection `c` that the entry table lacks. */
async function missingOwners(db: Kdb, spec: EntryOwned, c: CollectionInfo, after: string | null): Promise<string[]> {
  const key = spec.collectionKey === 'id' ? c.id : c.slug;
  let q = dyn(db)
    .selectFrom(`${spec.table} as t`)
    .select(`t.${spec.ownerColumn} as owner`)
    .distinct()
    .where(`t.${spec.collectionColumn}`, '=', key)
    .where(({ not, exists, selectFrom }: any) =>
      not(
        exists(
          selectFrom(`${c.table} as e`)
            .select(sql.lit(1).as('one'))
            .whereRef(`e.${spec.entryColumn}`, '=', `t.${spec.ownerColumn}`),
        ),
      ),
    );
  if (after !== null) q = q.where(`t.${spec.ownerColumn}`, '>', after);
  const rows: Array<{ owner: string }> = await q.orderBy(`t.${spec.ownerColumn}`).limit(CHECK_BATCH).execute();
  return rows.map((r) => r.owner);
}

async function dropOwned(db: Kdb, spec: EntryOwned, c: CollectionInfo, owners: string[]): Promise<void> {
  const key = spec.collectionKey === 'id' ? c.id : c.slug;
  await db.transaction().execute(async (trx) => {
    // The owner is checked again in the statement: an entry made since the scan keeps its rows.
    await dyn(trx)
      .deleteFrom(spec.table)
      .where(spec.collectionColumn, '=', key)
      .where(spec.ownerColumn, 'in', owners)
      .where(({ not, exists, selectFrom }: any) =>
        not(
          exists(
            selectFrom(`${c.table} as e`)
              .select(sql.lit(1).as('one'))
              .whereRef(`e.${spec.entryColumn}`, '=', sql.ref(`${spec.table}.${spec.ownerColumn}`)),
          ),
        ),
      )
      .execute();
  });
}

async function entryOwned(env: CheckEnv, sink: FindingSink): Promise<void> {
  const { ctx, snap, repair } = env;
  for (const c of [...snap.collections.values()].sort((a, b) => a.slug.localeCompare(b.slug))) {
    for (const spec of ENTRY_OWNED) {
      let after: string | null = null;
      for (;;) {
        const owners = await missingOwners(ctx.db, spec, c, after);
        // SQLite answers synchronously: give requests a turn between batches of a long check.
        await nextTurn();
        if (!owners.length) break;
        if (repair) await dropOwned(ctx.db, spec, c, owners);
        for (const owner of owners) {
          sink.add({
            code: 'ORPHANED_ROWS',
            message: `${spec.what} of ${spec.entryColumn === 'id' ? 'entry' : 'translation group'} ${owner}, which no longer exists`,
            collection: c.slug,
            subject: owner,
            repairable: true,
            repaired: repair,
          });
        }
        after = owners[owners.length - 1] ?? null;
        if (owners.length < CHECK_BATCH) break;
      }
    }
  }
}

/** Rows keyed to a collection that no longer exists (a collection delete removes them with it). */
async function goneCollections(env: CheckEnv, sink: FindingSink): Promise<void> {
  const { ctx, snap, repair } = env;
  const ids = [...snap.collectionsById.keys()];
  const slugs = [...snap.collections.keys()];
  for (const spec of ENTRY_OWNED) {
    const known = spec.collectionKey === 'id' ? ids : slugs;
    let q = dyn(ctx.db).selectFrom(spec.table).select(`${spec.collectionColumn} as key`).distinct();
    if (known.length) q = q.where(spec.collectionColumn, 'not in', known);
    const rows: Array<{ key: string }> = await q.execute();
    for (const { key } of rows) {
      if (repair) {
        await ctx.db.transaction().execute(async (trx) => {
          await dyn(trx).deleteFrom(spec.table).where(spec.collectionColumn, '=', key).execute();
        });
      }
      sink.add({
        code: 'ORPHANED_ROWS',
        message: `${spec.what} of collection ${key}, which no longer exists`,
        collection: null,
        subject: key,
        repairable: true,
        repaired: repair,
      });
    }
  }
}

/** Term assignments to a term group no locale of which exists, and credits of a deleted byline. */
async function goneTargets(env: CheckEnv, sink: FindingSink): Promise<void> {
  const { ctx, repair } = env;
  const targets = [
    {
      table: '_cms_content_terms',
      column: 'term_group',
      parent: '_cms_terms',
      parentColumn: 'translation_group',
      what: 'assignments of term group',
    },
    {
      table: '_cms_entry_bylines',
      column: 'byline_id',
      parent: '_cms_bylines',
      parentColumn: 'id',
      what: 'credits of byline',
    },
  ] as const;
  for (const t of targets) {
    const missing =
      (alias: string) =>
      ({ not, exists, selectFrom }: any) =>
        not(
          exists(
            selectFrom(`${t.parent} as p`)
              .select(sql.lit(1).as('one'))
              .whereRef(`p.${t.parentColumn}`, '=', sql.ref(alias)),
          ),
        );
    let after: string | null = null;
    for (;;) {
      let q = dyn(ctx.db)
        .selectFrom(`${t.table} as t`)
        .select(`t.${t.column} as key`)
        .distinct()
        .where(missing(`t.${t.column}`));
      if (after !== null) q = q.where(`t.${t.column}`, '>', after);
      const rows: Array<{ key: string }> = await q.orderBy(`t.${t.column}`).limit(CHECK_BATCH).execute();
      if (!rows.length) break;
      if (repair) {
        const keys = rows.map((r) => r.key);
        await ctx.db.transaction().execute(async (trx) => {
          // Checked again in the statement: a term or byline made since the scan keeps its rows.
          await dyn(trx)
            .deleteFrom(t.table)
            .where(t.column, 'in', keys)
            .where(missing(`${t.table}.${t.column}`))
            .execute();
        });
      }
      for (const { key } of rows) {
        sink.add({
          code: 'ORPHANED_ROWS',
          message: `${t.what} ${key}, which no longer exists`,
          collection: null,
          subject: key,
          repairable: true,
          repaired: repair,
        });
      }
      after = rows[rows.length - 1]?.key ?? null;
      if (rows.length < CHECK_BATCH) break;
    }
  }
}

export const orphansCheck: Check = {
  id: 'orphans',
  title: 'Rows whose entry, collection, term or byline no longer exists',
  async run(env, sink) {
    await goneCollections(env, sink);
    await entryOwned(env, sink);
    await goneTargets(env, sink);
  },
};

import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import type { Permission } from '../../auth/permissions.js';
import { notFound } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';
import type { SchemaHooks } from './listeners.js';
import type { CollectionInfo, SchemaSnapshot } from './model.js';
import { bumpSchemaVersion, type SchemaCache } from './snapshot.js';

export interface SchemaDeps {
  ctx: ServiceContext;
  cache: SchemaCache;
  hooks: SchemaHooks;
  /** Editors read schemas. */
  read(actor: Actor): Promise<SchemaSnapshot>;
  /**
   * Admins change schemas: one transaction that sees the schema as committed,
   * tells the schema listeners what changed, bumps the version row, and
   * clears the schema caches on commit.
   */
  write<T>(actor: Actor, fn: (trx: Kdb, snap: SchemaSnapshot) => Promise<T>): Promise<T>;
  /** The same transaction for a change another permission governs (e.g. `supports: search` by search:manage). */
  writeAs<T>(actor: Actor, permission: Permission, fn: (trx: Kdb, snap: SchemaSnapshot) => Promise<T>): Promise<T>;
}

export function schemaDeps(ctx: ServiceContext, cache: SchemaCache, hooks: SchemaHooks): SchemaDeps {
  async function writeAs<T>(
    actor: Actor,
    permission: Permission,
    fn: (trx: Kdb, snap: SchemaSnapshot) => Promise<T>,
  ): Promise<T> {
    requirePermission(actor, permission);
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const snap = await cache.fresh(trx);
        const out = await fn(trx, snap);
        if (hooks.active) await hooks.run(trx, { before: snap, after: await cache.fresh(trx), actor });
        await bumpSchemaVersion(trx);
        return out;
      });
    } finally {
      // Here at once, elsewhere through the bus (the version row is the safety net).
      await ctx.bus.publish('schema');
    }
  }
  return {
    ctx,
    cache,
    hooks,
    async read(actor) {
      requirePermission(actor, 'schema:read');
      return cache.get();
    },
    write: (actor, fn) => writeAs(actor, 'schema:manage', fn),
    writeAs,
  };
}

export function collectionOf(snap: SchemaSnapshot, slug: string): CollectionInfo {
  const c = snap.collections.get(slug);
  if (!c) throw notFound(`Collection "${slug}"`);
  return c;
}

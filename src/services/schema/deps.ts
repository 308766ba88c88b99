import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { notFound } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';
import type { CollectionInfo, SchemaSnapshot } from './model.js';
import { bumpSchemaVersion, type SchemaCache } from './snapshot.js';

export interface SchemaDeps {
  ctx: ServiceContext;
  cache: SchemaCache;
  /** Editors read schemas. */
  read(actor: Actor): Promise<SchemaSnapshot>;
  /**
   * Admins change schemas: one transaction that sees the schema as committed,
   * bumps the version row, and clears this process's cache on commit.
   */
  write<T>(actor: Actor, fn: (trx: Kdb, snap: SchemaSnapshot) => Promise<T>): Promise<T>;
}

export function schemaDeps(ctx: ServiceContext, cache: SchemaCache): SchemaDeps {
  return {
    ctx,
    cache,
    async read(actor) {
      requirePermission(actor, 'schema:read');
      return cache.get();
    },
    async write(actor, fn) {
      requirePermission(actor, 'schema:manage');
      try {
        return await ctx.db.transaction().execute(async (trx) => {
          const snap = await cache.fresh(trx);
          const out = await fn(trx, snap);
          await bumpSchemaVersion(trx);
          return out;
        });
      } finally {
        cache.invalidate();
      }
    },
  };
}

export function collectionOf(snap: SchemaSnapshot, slug: string): CollectionInfo {
  const c = snap.collections.get(slug);
  if (!c) throw notFound(`Collection "${slug}"`);
  return c;
}

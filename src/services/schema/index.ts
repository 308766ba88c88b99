import type { ServiceContext } from '../context.js';
import { blockTypeOps } from './block-types.js';
import { collectionOps } from './collections.js';
import { schemaDeps } from './deps.js';
import { fieldOps } from './fields.js';
import { orphanOps } from './orphans.js';
import { SchemaCache } from './snapshot.js';

export type { CreateBlockTypeInput, UpdateBlockTypeInput } from './block-types.js';
export type { CreateCollectionInput, UpdateCollectionInput } from './collections.js';
export type { AddFieldInput, UpdateFieldInput } from './fields.js';
export * from './model.js';
export type { OrphanedTable, RegisterOrphanInput } from './orphans.js';
export * from './present.js';
export { SchemaCache } from './snapshot.js';

/** The schema domain: collections, fields, block types and orphaned tables. */
export function createSchemaService(ctx: ServiceContext, cache = new SchemaCache(ctx.db)) {
  const deps = schemaDeps(ctx, cache);
  return {
    cache,
    /** The current schema, for other services (no permission check: callers check their own). */
    snapshot: () => cache.get(),
    collections: collectionOps(deps),
    fields: fieldOps(deps),
    blockTypes: blockTypeOps(deps),
    orphans: orphanOps(deps),
  };
}

export type SchemaService = ReturnType<typeof createSchemaService>;

import type { ServiceContext } from '../context.js';
import { blockTypeOps } from './block-types.js';
import { collectionOps } from './collections.js';
import { schemaDeps } from './deps.js';
import { fieldOps } from './fields.js';
import { SchemaHooks } from './listeners.js';
import { orphanOps } from './orphans.js';
import { SchemaCache } from './snapshot.js';

export type { CreateBlockTypeInput, UpdateBlockTypeInput } from './block-types.js';
export type { CreateCollectionInput, UpdateCollectionInput } from './collections.js';
export type { AddFieldInput, UpdateFieldInput } from './fields.js';
export type { SchemaChange, SchemaChangeListener } from './listeners.js';
export * from './model.js';
export type { OrphanedTable, RegisterOrphanInput } from './orphans.js';
export * from './present.js';
export { SchemaCache } from './snapshot.js';

/** The schema domain: collections, fields, block types and orphaned tables. */
export function createSchemaService(ctx: ServiceContext, cache = new SchemaCache(ctx.db)) {
  ctx.bus.subscribe('schema', () => cache.invalidate());
  const hooks = new SchemaHooks();
  const deps = schemaDeps(ctx, cache, hooks);
  return {
    cache,
    /** Listeners told about every schema change inside its transaction (`hooks.afterChange`). */
    hooks,
    /** The current schema, for other services (no permission check: callers check their own). */
    snapshot: () => cache.get(),
    collections: collectionOps(deps),
    fields: fieldOps(deps),
    blockTypes: blockTypeOps(deps),
    orphans: orphanOps(deps),
  };
}

export type SchemaService = ReturnType<typeof createSchemaService>;

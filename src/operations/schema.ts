import { z } from '@hono/zod-openapi';
import { DeletedResult, ReorderBody } from '../schemas/common.js';
import {
  BlockTypeSchema,
  BlockTypeVersionParams,
  CollectionParams,
  CollectionSchema,
  CollectionSummarySchema,
  CreateBlockTypeBody,
  CreateCollectionBody,
  FieldInputSchema,
  FieldParams,
  FieldSchema,
  FieldUpdateSchema,
  OrphanSchema,
  RegisterOrphanBody,
  UpdateBlockTypeBody,
  UpdateCollectionBody,
} from '../schemas/schema.js';
import { operation } from './operation.js';

/**
 * The schema operations (spec: the "Schema" table; MCP schema_*): collections, fields, block
 * types and orphaned entry tables. Editors read, Admins write; the schema service checks both.
 */
const READS = 'schema:read';
const WRITES = 'schema:write';

const CollectionList = z.object({ items: z.array(CollectionSummarySchema) });
const FieldList = z.object({ items: z.array(FieldSchema) });

// Collections

export const listCollections = operation({
  id: 'listCollections',
  output: CollectionList,
  writes: false,
  scope: READS,
  run: async ({ services, actor }) => ({ items: await services.schema.collections.list(actor) }),
});

export const createCollection = operation({
  id: 'createCollection',
  body: CreateCollectionBody,
  output: CollectionSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { body }) => services.schema.collections.create(actor, body),
});

export const reorderCollections = operation({
  id: 'reorderCollections',
  body: ReorderBody,
  output: CollectionList,
  writes: true,
  scope: WRITES,
  run: async ({ services, actor }, { body }) => ({
    items: await services.schema.collections.reorder(actor, body.slugs),
  }),
});

export const getCollection = operation({
  id: 'getCollection',
  params: CollectionParams,
  output: CollectionSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.schema.collections.get(actor, params.slug),
});

export const updateCollection = operation({
  id: 'updateCollection',
  params: CollectionParams,
  body: UpdateCollectionBody,
  output: CollectionSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.schema.collections.update(actor, params.slug, body),
});

export const deleteCollection = operation({
  id: 'deleteCollection',
  params: CollectionParams,
  output: DeletedResult,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params }) => services.schema.collections.remove(actor, params.slug),
});

// Fields

export const listFields = operation({
  id: 'listFields',
  params: CollectionParams,
  output: FieldList,
  writes: false,
  scope: READS,
  run: async ({ services, actor }, { params }) => ({ items: await services.schema.fields.list(actor, params.slug) }),
});

export const createField = operation({
  id: 'createField',
  params: CollectionParams,
  body: FieldInputSchema,
  output: FieldSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.schema.fields.create(actor, params.slug, body),
});

export const reorderFields = operation({
  id: 'reorderFields',
  params: CollectionParams,
  body: ReorderBody,
  output: FieldList,
  writes: true,
  scope: WRITES,
  run: async ({ services, actor }, { params, body }) => ({
    items: await services.schema.fields.reorder(actor, params.slug, body.slugs),
  }),
});

export const getField = operation({
  id: 'getField',
  params: FieldParams,
  output: FieldSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.schema.fields.get(actor, params.slug, params.fieldSlug),
});

export const updateField = operation({
  id: 'updateField',
  params: FieldParams,
  body: FieldUpdateSchema,
  output: FieldSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) =>
    services.schema.fields.update(actor, params.slug, params.fieldSlug, body),
});

export const deleteField = operation({
  id: 'deleteField',
  params: FieldParams,
  output: DeletedResult,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params }) => services.schema.fields.remove(actor, params.slug, params.fieldSlug),
});

// Block types

export const listBlockTypes = operation({
  id: 'listBlockTypes',
  output: z.object({ items: z.array(BlockTypeSchema) }),
  writes: false,
  scope: READS,
  run: async ({ services, actor }) => ({ items: await services.schema.blockTypes.list(actor) }),
});

export const createBlockType = operation({
  id: 'createBlockType',
  body: CreateBlockTypeBody,
  output: BlockTypeSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { body }) => services.schema.blockTypes.create(actor, body),
});

export const getBlockType = operation({
  id: 'getBlockType',
  params: CollectionParams,
  output: BlockTypeSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.schema.blockTypes.get(actor, params.slug),
});

export const updateBlockType = operation({
  id: 'updateBlockType',
  params: CollectionParams,
  body: UpdateBlockTypeBody,
  output: BlockTypeSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.schema.blockTypes.update(actor, params.slug, body),
});

export const activateBlockTypeVersion = operation({
  id: 'activateBlockTypeVersion',
  params: BlockTypeVersionParams,
  output: BlockTypeSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params }) =>
    services.schema.blockTypes.activateVersion(actor, params.slug, params.version),
});

// Orphaned tables

export const listOrphanedTables = operation({
  id: 'listOrphanedTables',
  output: z.object({ items: z.array(OrphanSchema) }),
  writes: false,
  scope: READS,
  run: async ({ services, actor }) => ({ items: await services.schema.orphans.list(actor) }),
});

export const registerOrphanedTable = operation({
  id: 'registerOrphanedTable',
  params: CollectionParams,
  body: RegisterOrphanBody,
  output: CollectionSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.schema.orphans.register(actor, params.slug, body),
});

import { z } from '@hono/zod-openapi';
import { DeletedResult, ReorderBody } from '../../schemas/common.js';
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
} from '../../schemas/schema.js';
import { type Api, op } from '../op.js';

/** Routes of the spec's "Schema" table. Editors read; Admins write (checked in the service). */
export function schemaRoutes(api: Api): void {
  const tags = ['Schema'];

  // Collections
  op(
    api,
    {
      method: 'get',
      path: '/schema/collections',
      operationId: 'listCollections',
      summary: 'List collections in admin sidebar order',
      tags,
      response: z.object({ items: z.array(CollectionSummarySchema) }),
    },
    async ({ actor, services }) => ({ items: await services.schema.collections.list(actor) }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/schema/collections',
      operationId: 'createCollection',
      summary: 'Create a collection (and its entry table)',
      tags,
      body: CreateCollectionBody,
      response: CollectionSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.schema.collections.create(actor, body),
  );
  op(
    api,
    {
      method: 'post',
      path: '/schema/collections/reorder',
      operationId: 'reorderCollections',
      summary: 'Reorder collections in the admin sidebar',
      tags,
      body: ReorderBody,
      response: z.object({ items: z.array(CollectionSummarySchema) }),
    },
    async ({ actor, services, body }) => ({ items: await services.schema.collections.reorder(actor, body.slugs) }),
  );
  op(
    api,
    {
      method: 'get',
      path: '/schema/collections/{slug}',
      operationId: 'getCollection',
      summary: 'Get a collection with its fields',
      tags,
      params: CollectionParams,
      response: CollectionSchema,
    },
    async ({ actor, services, params }) => services.schema.collections.get(actor, params.slug),
  );
  op(
    api,
    {
      method: 'put',
      path: '/schema/collections/{slug}',
      operationId: 'updateCollection',
      summary: 'Update a collection',
      tags,
      params: CollectionParams,
      body: UpdateCollectionBody,
      response: CollectionSchema,
    },
    async ({ actor, services, params, body }) => services.schema.collections.update(actor, params.slug, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/schema/collections/{slug}',
      operationId: 'deleteCollection',
      summary: 'Delete a collection and all of its entries (cannot be undone)',
      tags,
      params: CollectionParams,
      response: DeletedResult,
    },
    async ({ actor, services, params }) => services.schema.collections.remove(actor, params.slug),
  );

  // Fields
  op(
    api,
    {
      method: 'get',
      path: '/schema/collections/{slug}/fields',
      operationId: 'listFields',
      summary: 'List the fields of a collection',
      tags,
      params: CollectionParams,
      response: z.object({ items: z.array(FieldSchema) }),
    },
    async ({ actor, services, params }) => ({ items: await services.schema.fields.list(actor, params.slug) }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/schema/collections/{slug}/fields',
      operationId: 'createField',
      summary: 'Add a field (adds a column, or a relation for reference fields)',
      tags,
      params: CollectionParams,
      body: FieldInputSchema,
      response: FieldSchema,
      status: 201,
    },
    async ({ actor, services, params, body }) => services.schema.fields.create(actor, params.slug, body),
  );
  op(
    api,
    {
      method: 'post',
      path: '/schema/collections/{slug}/fields/reorder',
      operationId: 'reorderFields',
      summary: 'Reorder the fields of a collection',
      tags,
      params: CollectionParams,
      body: ReorderBody,
      response: z.object({ items: z.array(FieldSchema) }),
    },
    async ({ actor, services, params, body }) => ({
      items: await services.schema.fields.reorder(actor, params.slug, body.slugs),
    }),
  );
  op(
    api,
    {
      method: 'get',
      path: '/schema/collections/{slug}/fields/{fieldSlug}',
      operationId: 'getField',
      summary: 'Get a field',
      tags,
      params: FieldParams,
      response: FieldSchema,
    },
    async ({ actor, services, params }) => services.schema.fields.get(actor, params.slug, params.fieldSlug),
  );
  op(
    api,
    {
      method: 'put',
      path: '/schema/collections/{slug}/fields/{fieldSlug}',
      operationId: 'updateField',
      summary: 'Update a field (renaming it renames the column)',
      tags,
      params: FieldParams,
      body: FieldUpdateSchema,
      response: FieldSchema,
    },
    async ({ actor, services, params, body }) =>
      services.schema.fields.update(actor, params.slug, params.fieldSlug, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/schema/collections/{slug}/fields/{fieldSlug}',
      operationId: 'deleteField',
      summary: 'Delete a field and all of its stored values (cannot be undone)',
      tags,
      params: FieldParams,
      response: DeletedResult,
    },
    async ({ actor, services, params }) => services.schema.fields.remove(actor, params.slug, params.fieldSlug),
  );

  // Block types
  op(
    api,
    {
      method: 'get',
      path: '/schema/block-types',
      operationId: 'listBlockTypes',
      summary: 'List block types with their versions',
      tags,
      response: z.object({ items: z.array(BlockTypeSchema) }),
    },
    async ({ actor, services }) => ({ items: await services.schema.blockTypes.list(actor) }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/schema/block-types',
      operationId: 'createBlockType',
      summary: 'Create a block type (version 1)',
      tags,
      body: CreateBlockTypeBody,
      response: BlockTypeSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.schema.blockTypes.create(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: '/schema/block-types/{slug}',
      operationId: 'getBlockType',
      summary: 'Get a block type with its versions',
      tags,
      params: CollectionParams,
      response: BlockTypeSchema,
    },
    async ({ actor, services, params }) => services.schema.blockTypes.get(actor, params.slug),
  );
  op(
    api,
    {
      method: 'put',
      path: '/schema/block-types/{slug}',
      operationId: 'updateBlockType',
      summary: 'Update a block type; changed fields become a new version',
      tags,
      params: CollectionParams,
      body: UpdateBlockTypeBody,
      response: BlockTypeSchema,
    },
    async ({ actor, services, params, body }) => services.schema.blockTypes.update(actor, params.slug, body),
  );
  op(
    api,
    {
      method: 'post',
      path: '/schema/block-types/{slug}/versions/{version}/activate',
      operationId: 'activateBlockTypeVersion',
      summary: 'Make a stored version the active one',
      tags,
      params: BlockTypeVersionParams,
      response: BlockTypeSchema,
    },
    async ({ actor, services, params }) =>
      services.schema.blockTypes.activateVersion(actor, params.slug, params.version),
  );

  // Orphaned tables
  op(
    api,
    {
      method: 'get',
      path: '/schema/orphans',
      operationId: 'listOrphanedTables',
      summary: 'List entry tables (ec_*) that no collection describes',
      tags,
      response: z.object({ items: z.array(OrphanSchema) }),
    },
    async ({ actor, services }) => ({ items: await services.schema.orphans.list(actor) }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/schema/orphans/{slug}',
      operationId: 'registerOrphanedTable',
      summary: 'Register an orphaned table as a collection again',
      tags,
      params: CollectionParams,
      body: RegisterOrphanBody,
      response: CollectionSchema,
      status: 201,
    },
    async ({ actor, services, params, body }) => services.schema.orphans.register(actor, params.slug, body),
  );
}

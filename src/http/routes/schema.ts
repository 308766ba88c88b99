import {
  activateBlockTypeVersion,
  createBlockType,
  createCollection,
  createField,
  deleteCollection,
  deleteField,
  getBlockType,
  getCollection,
  getField,
  listBlockTypes,
  listCollections,
  listFields,
  listOrphanedTables,
  registerOrphanedTable,
  reorderCollections,
  reorderFields,
  updateBlockType,
  updateCollection,
  updateField,
} from '../../operations/schema.js';
import { type Api, route } from '../op.js';

/** Routes of the spec's "Schema" table (operations: operations/schema.ts). Editors read; Admins write. */
export function schemaRoutes(api: Api): void {
  const tags = ['Schema'];
  const collection = '/schema/collections/{slug}';
  const field = `${collection}/fields/{fieldSlug}`;
  const blockType = '/schema/block-types/{slug}';

  // Collections
  route(api, {
    operation: listCollections,
    method: 'get',
    path: '/schema/collections',
    summary: 'List collections in admin sidebar order',
    tags,
  });
  route(api, {
    operation: createCollection,
    method: 'post',
    path: '/schema/collections',
    summary: 'Create a collection (and its entry table)',
    tags,
    status: 201,
  });
  route(api, {
    operation: reorderCollections,
    method: 'post',
    path: '/schema/collections/reorder',
    summary: 'Reorder collections in the admin sidebar',
    tags,
  });
  route(api, {
    operation: getCollection,
    method: 'get',
    path: collection,
    summary: 'Get a collection with its fields',
    tags,
  });
  route(api, { operation: updateCollection, method: 'put', path: collection, summary: 'Update a collection', tags });
  route(api, {
    operation: deleteCollection,
    method: 'delete',
    path: collection,
    summary: 'Delete a collection and all of its entries (cannot be undone)',
    tags,
  });

  // Fields
  route(api, {
    operation: listFields,
    method: 'get',
    path: `${collection}/fields`,
    summary: 'List the fields of a collection',
    tags,
  });
  route(api, {
    operation: createField,
    method: 'post',
    path: `${collection}/fields`,
    summary: 'Add a field (adds a column, or a relation for reference fields)',
    tags,
    status: 201,
  });
  route(api, {
    operation: reorderFields,
    method: 'post',
    path: `${collection}/fields/reorder`,
    summary: 'Reorder the fields of a collection',
    tags,
  });
  route(api, { operation: getField, method: 'get', path: field, summary: 'Get a field', tags });
  route(api, {
    operation: updateField,
    method: 'put',
    path: field,
    summary: 'Update a field (renaming it renames the column)',
    tags,
  });
  route(api, {
    operation: deleteField,
    method: 'delete',
    path: field,
    summary: 'Delete a field and all of its stored values (cannot be undone)',
    tags,
  });

  // Block types
  route(api, {
    operation: listBlockTypes,
    method: 'get',
    path: '/schema/block-types',
    summary: 'List block types with their versions',
    tags,
  });
  route(api, {
    operation: createBlockType,
    method: 'post',
    path: '/schema/block-types',
    summary: 'Create a block type (version 1)',
    tags,
    status: 201,
  });
  route(api, {
    operation: getBlockType,
    method: 'get',
    path: blockType,
    summary: 'Get a block type with its versions',
    tags,
  });
  route(api, {
    operation: updateBlockType,
    method: 'put',
    path: blockType,
    summary: 'Update a block type; changed fields become a new version',
    tags,
  });
  route(api, {
    operation: activateBlockTypeVersion,
    method: 'post',
    path: `${blockType}/versions/{version}/activate`,
    summary: 'Make a stored version the active one',
    tags,
  });

  // Orphaned tables
  route(api, {
    operation: listOrphanedTables,
    method: 'get',
    path: '/schema/orphans',
    summary: 'List entry tables (ec_*) that no collection describes',
    tags,
  });
  route(api, {
    operation: registerOrphanedTable,
    method: 'post',
    path: '/schema/orphans/{slug}',
    summary: 'Register an orphaned table as a collection again',
    tags,
    status: 201,
  });
}

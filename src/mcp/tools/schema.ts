import { z } from 'zod';
import {
  activateBlockTypeVersion,
  createBlockType,
  createCollection,
  createField,
  deleteCollection,
  deleteField,
  getBlockType,
  getCollection,
  listBlockTypes,
  listCollections,
  updateBlockType,
  updateCollection,
  updateField,
} from '../../operations/schema.js';
import {
  CreateBlockTypeBody,
  CreateCollectionBody,
  FieldInputSchema,
  FieldUpdateSchema,
  UpdateBlockTypeBody,
  UpdateCollectionBody,
} from '../../schemas/schema.js';
import { DESTRUCTIVE, READ, type ToolDef, toolOf, WRITE } from '../registry.js';

const Collection = z.object({ collection: z.string().min(1).describe('Collection slug') });
const BlockType = z.object({ slug: z.string().min(1).describe('Block type slug') });

/** The delete tools are listed without an output schema and answer without structuredContent, as they always have. */
const withoutOutput = (def: ToolDef): ToolDef => ({ ...def, output: undefined });

export const schemaTools: ToolDef[] = [
  toolOf(listCollections, {
    name: 'schema_list_collections',
    title: 'List Collections',
    description: 'List collections in admin sidebar order.',
    annotations: READ,
    input: z.object({}),
    toArgs: () => ({}),
  }),
  toolOf(getCollection, {
    name: 'schema_get_collection',
    title: 'Get Collection Schema',
    description: 'A collection with all its fields.',
    annotations: READ,
    input: Collection,
    toArgs: (a) => ({ params: { slug: a.collection } }),
  }),
  toolOf(listBlockTypes, {
    name: 'schema_list_block_types',
    title: 'List Block Types',
    description: 'Block types with their versions.',
    annotations: READ,
    input: z.object({}),
    toArgs: () => ({}),
  }),
  toolOf(getBlockType, {
    name: 'schema_get_block_type',
    title: 'Get Block Type',
    description: 'One block type with its versions.',
    annotations: READ,
    input: BlockType,
    toArgs: (a) => ({ params: a }),
  }),
  toolOf(createBlockType, {
    name: 'schema_create_block_type',
    title: 'Create Block Type',
    description: 'Create a block type (version 1).',
    annotations: WRITE,
    input: CreateBlockTypeBody,
    toArgs: (a) => ({ body: a }),
  }),
  toolOf(updateBlockType, {
    name: 'schema_update_block_type',
    title: 'Update Block Type',
    description: 'Update a block type; a changed field list is stored as a new version.',
    annotations: WRITE,
    input: BlockType.extend(UpdateBlockTypeBody.shape),
    toArgs: ({ slug, ...body }) => ({ params: { slug }, body }),
  }),
  toolOf(activateBlockTypeVersion, {
    name: 'schema_activate_block_type_version',
    title: 'Activate Block Type Version',
    description: 'Make a stored version of a block type the active one.',
    annotations: WRITE,
    input: BlockType.extend({ version: z.number().int().min(1) }),
    toArgs: (a) => ({ params: a }),
  }),
  toolOf(createCollection, {
    name: 'schema_create_collection',
    title: 'Create Collection',
    description: 'Create a collection (a new database table), optionally with fields.',
    annotations: WRITE,
    input: CreateCollectionBody,
    toArgs: (a) => ({ body: a }),
  }),
  withoutOutput(
    toolOf(deleteCollection, {
      name: 'schema_delete_collection',
      title: 'Delete Collection',
      description: 'Delete a collection: its table and every entry in it are removed. Cannot be undone.',
      annotations: DESTRUCTIVE,
      input: Collection,
      toArgs: (a) => ({ params: { slug: a.collection } }),
    }),
  ),
  toolOf(updateCollection, {
    name: 'schema_update_collection',
    title: 'Update Collection',
    description: 'Update the label, supports (comments, seo …), URL pattern or order of a collection.',
    annotations: WRITE,
    input: Collection.extend(UpdateCollectionBody.shape),
    toArgs: ({ collection, ...body }) => ({ params: { slug: collection }, body }),
  }),
  toolOf(createField, {
    name: 'schema_create_field',
    title: 'Add Field to Collection',
    description: 'Add a field (a new column, or a relation for reference fields).',
    annotations: WRITE,
    input: Collection.extend(FieldInputSchema.shape),
    toArgs: ({ collection, ...body }) => ({ params: { slug: collection }, body }),
  }),
  withoutOutput(
    toolOf(deleteField, {
      name: 'schema_delete_field',
      title: 'Remove Field from Collection',
      description: 'Delete a field and every stored value of it. Cannot be undone.',
      annotations: DESTRUCTIVE,
      input: Collection.extend({ field: z.string().min(1).describe('Field slug') }),
      toArgs: (a) => ({ params: { slug: a.collection, fieldSlug: a.field } }),
    }),
  ),
  toolOf(updateField, {
    name: 'schema_update_field',
    title: 'Update Field',
    description: 'Update a field (renaming it renames the column; the type cannot change).',
    annotations: WRITE,
    input: Collection.extend({ field: z.string().min(1).describe('Slug of the field to change') }).extend(
      FieldUpdateSchema.shape,
    ),
    toArgs: ({ collection, field, ...body }) => ({ params: { slug: collection, fieldSlug: field }, body }),
  }),
];

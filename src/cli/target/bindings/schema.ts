import { type Bindings, bind } from '../operations.js';
import type { Target } from '../types.js';

/**
 * The schema methods that are catalogue operations. The listings (their answer's `items`), the
 * deletes and reorders (no answer) and `locales` (the content model's) stay written out in each
 * target.
 */
export const SCHEMA_OPERATIONS = {
  getCollection: bind('getCollection', (slug: string) => ({ params: { slug } })),
  createCollection: bind('createCollection', (body: object) => ({ body })),
  updateCollection: bind('updateCollection', (slug: string, body: object) => ({ params: { slug }, body })),
  createField: bind('createField', (slug: string, body: object) => ({ params: { slug }, body })),
  updateField: bind('updateField', (slug: string, fieldSlug: string, body: object) => ({
    params: { slug, fieldSlug },
    body,
  })),
  createBlockType: bind('createBlockType', (body: object) => ({ body })),
  updateBlockType: bind('updateBlockType', (slug: string, body: object) => ({ params: { slug }, body })),
  activateBlockTypeVersion: bind('activateBlockTypeVersion', (slug: string, version: number) => ({
    params: { slug, version },
  })),
} satisfies Bindings<Target['schema']>;

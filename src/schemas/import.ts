import { z } from 'zod';
import { FIELD_TYPES } from '../services/fields/types.js';
import { collectionSlug, executeConfigSchema, importName as name } from '../services/import/config.js';

export { type ExecuteConfig, type ExecuteConfigInput, executeConfigSchema } from '../services/import/config.js';

/**
 * Bodies of the WordPress import routes (outside the OpenAPI contract, see
 * docs/decisions.md): the prepare request and the `config` part of execute.
 */

export const prepareBodySchema = z.strictObject({
  postTypes: z
    .array(
      z.strictObject({
        name,
        collection: collectionSlug,
        fields: z
          .array(
            z.strictObject({
              slug: z.string().min(1).max(63),
              label: z.string().min(1).max(200),
              type: z.enum(FIELD_TYPES),
              required: z.boolean().optional(),
              searchable: z.boolean().optional(),
            }),
          )
          .max(100),
        /** Turn comments on for an existing collection that has them off (the review's `comments_disabled`). */
        enableComments: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(100),
});

export const probeBodySchema = z.strictObject({ url: z.string().min(1).max(2000) });

const idRef = z.strictObject({
  collection: collectionSlug,
  id: z.string().min(1).max(64),
  group: z.string().min(1).max(64),
  existing: z.boolean().optional(),
});
const sourceId = z.string().min(1).max(40);

/** The exporter-plugin source: credentials (Base64 `user:application-password`, or a migration key). */
export const pluginAnalyzeBodySchema = z.strictObject({
  url: z.string().min(1).max(2000),
  token: z.string().min(1).max(4096),
});

/** One step of the exporter flow; the client carries the cursor and the accumulated maps. */
export const pluginExecuteBodySchema = pluginAnalyzeBodySchema.extend({
  config: executeConfigSchema,
  phase: z.enum(['content', 'comments', 'finalize']),
  cursor: z.string().max(2000).nullable().optional(),
  idMap: z.record(sourceId, idRef).optional(),
  translationGroups: z.record(sourceId, z.string().min(1).max(64)).optional(),
  commentRoots: z.record(sourceId, z.strictObject({ id: z.string().max(64), root: z.string().max(64) })).optional(),
});

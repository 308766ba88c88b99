import { z } from 'zod';
import { issuesError } from '../../core/errors.js';
import { repairMediaUsage } from '../../operations/media-usage.js';
import { type ToolDef, toolOf, WRITE } from '../registry.js';

const RepairInput = z.object({
  scope: z.enum(['collection', 'all']).describe('"collection" repairs one collection, "all" every collection in turn'),
  collection: z.string().min(1).max(64).optional().describe('Collection slug (scope "collection" only)'),
});

/**
 * `media_usage_repair` (spec 2, rule 10): `complete`, `partial`, `failed` and
 * `stale` are all successful answers (inspect status and counts);
 * authentication, validation and unexpected failures are errors.
 */
export const mediaUsageTools: ToolDef[] = [
  toolOf(repairMediaUsage, {
    name: 'media_usage_repair',
    title: 'Repair Media Usage Index',
    description:
      'Rebuild the media usage index of one collection (scope "collection" with collection) or of all (scope "all"), synchronously and in order. The answer status is complete, partial, failed or stale: inspect it and each collection’s status and source counts.',
    annotations: { ...WRITE, idempotentHint: true },
    input: RepairInput,
    toArgs: (a) => {
      // The flat arguments name the collection only with scope "collection", as the request body's two forms do.
      if ((a.scope === 'collection') !== (a.collection !== undefined)) {
        throw issuesError('Invalid arguments', [
          {
            path: ['collection'],
            code: a.scope === 'collection' ? 'required' : 'unexpected',
            message: a.scope === 'collection' ? 'name the collection to repair' : 'only with scope "collection"',
          },
        ]);
      }
      return { body: a.scope === 'all' ? { scope: 'all' } : { scope: 'collection', collection: a.collection } };
    },
  }),
];

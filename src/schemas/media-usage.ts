import { z } from '@hono/zod-openapi';
import { MediaUsageSchema } from './media.js';

/** Shapes of the operator operations under /admin/media-usage (spec: "Media usage activation"). */

export const ActivationSchema = z
  .object({
    state: z.string().openapi({ description: '`expanded` (tracking off), `activating` or `active`' }),
    lastErrorCode: z.string().nullable().openapi({ description: 'Set when a step failed; send one confirmed retry' }),
    startedAt: z.string().nullable(),
    activatedAt: z.string().nullable(),
  })
  .openapi('MediaUsageActivation');

export const ActivationBody = z
  .object({
    writersDrained: z.literal(true).openapi({ description: 'Confirms direct database writers are stopped' }),
    retry: z
      .boolean()
      .optional()
      .openapi({ description: 'The confirmed retry after `lastErrorCode` was set (clears it)' }),
  })
  .strict();

const Status = z.string();

export const CollectionProgressSchema = z.object({
  collection: z.string(),
  status: Status.openapi({ description: '`pending`, `running`, `complete`, `partial`, `failed` or `stale`' }),
  entries: z.number().int(),
  referencing: z.number().int(),
  references: z.number().int(),
  skipped: z.number().int(),
  lastErrorCode: z.string().nullable(),
});

export const ProgressSchema = ActivationSchema.extend({
  coverage: MediaUsageSchema.shape.coverage,
  nextRequestInMs: z
    .number()
    .int()
    .nullable()
    .openapi({ description: 'Wait this long before the next progress request; null: historical indexing finished' }),
  collections: z.array(CollectionProgressSchema),
}).openapi('MediaUsageProgress');

export const WorkItemSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['index', 'collection-deletion']),
    collection: z.string(),
    status: z.string().openapi({ description: '`pending`, `running`, `done` or `failed`' }),
    attempts: z.number().int(),
    lastErrorCode: z.string().nullable(),
    leaseExpiresAt: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('MediaUsageWorkItem');

export const WorkListSchema = z
  .object({
    items: z.array(WorkItemSchema),
    nextCursor: z.string().optional(),
    backlog: z.enum(['none', 'some']).openapi({ description: 'Whether any item is waiting, running or failed' }),
  })
  .openapi('MediaUsageWorkList');

export const WorkListQuery = z.object({
  cursor: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer' }),
});

export const WorkRetryBody = z
  .object({
    id: z.string().min(1).max(64),
    version: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: 'The version read; WORK_CHANGED when it moved' }),
  })
  .strict();

export const WorkRetryResult = z.object({ item: WorkItemSchema }).openapi('MediaUsageWorkRetry');

export const RepairBody = z
  .discriminatedUnion('scope', [
    z.object({ scope: z.literal('collection'), collection: z.string().min(1).max(64) }).strict(),
    z.object({ scope: z.literal('all') }).strict(),
  ])
  .openapi('MediaUsageRepairRequest');

const RepairStatus = z.enum(['complete', 'partial', 'failed', 'stale']);

export const RepairResultSchema = z
  .object({
    status: RepairStatus,
    collections: z.array(
      z.object({
        collection: z.string(),
        status: RepairStatus,
        entries: z.number().int(),
        referencing: z.number().int(),
        references: z.number().int(),
        skipped: z.number().int(),
        errorCode: z.string().nullable(),
      }),
    ),
  })
  .openapi('MediaUsageRepair');

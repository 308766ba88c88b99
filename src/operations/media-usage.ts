import {
  ActivationBody,
  ActivationSchema,
  ProgressSchema,
  RepairBody,
  RepairResultSchema,
  WorkListQuery,
  WorkListSchema,
  WorkRetryBody,
  WorkRetryResult,
} from '../schemas/media-usage.js';
import { DRIVES_ACTIVATION } from '../services/holds.js';
import { operation } from './operation.js';

/**
 * The operator operations of media usage tracking (spec: /admin/media-usage/*;
 * MCP media_usage_repair). Session users need `schema:manage`, tokens the
 * `admin` scope; the rules live in the media usage service. The writes drive
 * activation, so they stay open while it holds other writes.
 */
const OPERATOR = 'admin';

export const repairMediaUsage = operation({
  id: 'repairMediaUsage',
  body: RepairBody,
  output: RepairResultSchema,
  writes: true,
  openDuring: DRIVES_ACTIVATION,
  scope: OPERATOR,
  run: ({ services, actor }, { body }) => services.mediaUsage.repair(actor, body),
});

export const getMediaUsageProgress = operation({
  id: 'getMediaUsageProgress',
  output: ProgressSchema,
  writes: false,
  scope: OPERATOR,
  run: ({ services, actor }) => services.mediaUsage.progress(actor),
});

export const advanceMediaUsageProgress = operation({
  id: 'advanceMediaUsageProgress',
  output: ProgressSchema,
  writes: true,
  openDuring: DRIVES_ACTIVATION,
  scope: OPERATOR,
  run: ({ services, actor }) => services.mediaUsage.advance(actor),
});

export const listMediaUsageWork = operation({
  id: 'listMediaUsageWork',
  query: WorkListQuery,
  output: WorkListSchema,
  writes: false,
  scope: OPERATOR,
  run: ({ services, actor }, { query }) => services.mediaUsage.work(actor, query),
});

export const getMediaUsageActivation = operation({
  id: 'getMediaUsageActivation',
  output: ActivationSchema,
  writes: false,
  scope: OPERATOR,
  run: ({ services, actor }) => services.mediaUsage.activation(actor),
});

export const advanceMediaUsageActivation = operation({
  id: 'advanceMediaUsageActivation',
  body: ActivationBody,
  output: ActivationSchema,
  writes: true,
  openDuring: DRIVES_ACTIVATION,
  scope: OPERATOR,
  run: ({ services, actor }, { body }) => services.mediaUsage.activate(actor, body),
});

export const retryMediaUsageWork = operation({
  id: 'retryMediaUsageWork',
  body: WorkRetryBody,
  output: WorkRetryResult,
  writes: true,
  openDuring: DRIVES_ACTIVATION,
  scope: OPERATOR,
  run: async ({ services, actor }, { body }) => ({ item: await services.mediaUsage.retryWork(actor, body) }),
});

export const listMediaUsageCollectionDeletions = operation({
  id: 'listMediaUsageCollectionDeletions',
  query: WorkListQuery,
  output: WorkListSchema,
  writes: false,
  scope: OPERATOR,
  run: ({ services, actor }, { query }) => services.mediaUsage.collectionDeletions(actor, query),
});

export const retryMediaUsageCollectionDeletion = operation({
  id: 'retryMediaUsageCollectionDeletion',
  body: WorkRetryBody,
  output: WorkRetryResult,
  writes: true,
  openDuring: DRIVES_ACTIVATION,
  scope: OPERATOR,
  run: async ({ services, actor }, { body }) => ({
    item: await services.mediaUsage.retryCollectionDeletion(actor, body),
  }),
});

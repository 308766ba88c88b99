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
} from '../../schemas/media-usage.js';
import { DRIVES_ACTIVATION } from '../../services/holds.js';
import { type Api, op } from '../op.js';

/** The operator operations of media usage tracking (spec: /admin/media-usage/*). Rules live in the service. */
export function mediaUsageRoutes(api: Api): void {
  const tags = ['Media usage'];
  const operator = 'Session users need `schema:manage`; Bearer tokens also need the `admin` scope.';
  op(
    api,
    {
      method: 'post',
      path: '/admin/media-usage/repair',
      operationId: 'repairMediaUsage',
      summary: 'Rebuild the usage index of one collection or of all (synchronous, sequential)',
      description: `A 200 answer can still report \`partial\`, \`failed\` or \`stale\`: inspect \`status\`, each collection's status and the source counts. ${operator}`,
      tags,
      openDuring: DRIVES_ACTIVATION,
      body: RepairBody,
      response: RepairResultSchema,
    },
    async ({ actor, services, body }) => services.mediaUsage.repair(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/media-usage/progress',
      operationId: 'getMediaUsageProgress',
      summary: 'Activation and historical indexing progress',
      description: operator,
      tags,
      response: ProgressSchema,
    },
    async ({ actor, services }) => services.mediaUsage.progress(actor),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/media-usage/progress',
      operationId: 'advanceMediaUsageProgress',
      summary: 'Run one bounded step of activation or historical indexing',
      description: `Send one at a time, waiting \`nextRequestInMs\` between them, until it is null. ${operator}`,
      tags,
      openDuring: DRIVES_ACTIVATION,
      response: ProgressSchema,
    },
    async ({ actor, services }) => services.mediaUsage.advance(actor),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/media-usage/work',
      operationId: 'listMediaUsageWork',
      summary: 'Usage work items, newest first (no content, references, lease tokens or exact backlog)',
      description: operator,
      tags,
      query: WorkListQuery,
      response: WorkListSchema,
    },
    async ({ actor, services, query }) => services.mediaUsage.work(actor, query),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/media-usage/activation',
      operationId: 'getMediaUsageActivation',
      summary: 'The activation state of media usage tracking',
      description: operator,
      tags,
      response: ActivationSchema,
    },
    async ({ actor, services }) => services.mediaUsage.activation(actor),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/media-usage/activation',
      operationId: 'advanceMediaUsageActivation',
      summary: 'Start activation (`writersDrained: true`), or send the confirmed retry after an error',
      description: `Moves \`expanded\` to \`activating\`; in any other state the answer is the state as it is (activation cannot be cancelled or reset). ${operator}`,
      tags,
      openDuring: DRIVES_ACTIVATION,
      body: ActivationBody,
      response: ActivationSchema,
    },
    async ({ actor, services, body }) => services.mediaUsage.activate(actor, body),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/media-usage/work/retry',
      operationId: 'retryMediaUsageWork',
      summary: 'Run one work item again (idempotent)',
      description: `WORK_LEASE_ACTIVE (with \`details.leaseExpiresAt\`) while a worker holds it; WORK_CHANGED when \`version\` no longer matches. ${operator}`,
      tags,
      openDuring: DRIVES_ACTIVATION,
      body: WorkRetryBody,
      response: WorkRetryResult,
    },
    async ({ actor, services, body }) => ({ item: await services.mediaUsage.retryWork(actor, body) }),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/media-usage/collection-deletions',
      operationId: 'listMediaUsageCollectionDeletions',
      summary: 'Work clearing the usage rows of deleted collections',
      description: operator,
      tags,
      query: WorkListQuery,
      response: WorkListSchema,
    },
    async ({ actor, services, query }) => services.mediaUsage.collectionDeletions(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/media-usage/collection-deletions/retry',
      operationId: 'retryMediaUsageCollectionDeletion',
      summary: 'Run one collection deletion again (idempotent)',
      description: operator,
      tags,
      openDuring: DRIVES_ACTIVATION,
      body: WorkRetryBody,
      response: WorkRetryResult,
    },
    async ({ actor, services, body }) => ({ item: await services.mediaUsage.retryCollectionDeletion(actor, body) }),
  );
}

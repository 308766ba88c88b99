import {
  advanceMediaUsageActivation,
  advanceMediaUsageProgress,
  getMediaUsageActivation,
  getMediaUsageProgress,
  listMediaUsageCollectionDeletions,
  listMediaUsageWork,
  repairMediaUsage,
  retryMediaUsageCollectionDeletion,
  retryMediaUsageWork,
} from '../../operations/media-usage.js';
import { type Api, route } from '../op.js';

/** The operator operations of media usage tracking (spec: /admin/media-usage/*; operations: operations/media-usage.ts). */
export function mediaUsageRoutes(api: Api): void {
  const tags = ['Media usage'];
  const operator = 'Session users need `schema:manage`; Bearer tokens also need the `admin` scope.';
  route(api, {
    operation: repairMediaUsage,
    method: 'post',
    path: '/admin/media-usage/repair',
    summary: 'Rebuild the usage index of one collection or of all (synchronous, sequential)',
    description: `A 200 answer can still report \`partial\`, \`failed\` or \`stale\`: inspect \`status\`, each collection's status and the source counts. ${operator}`,
    tags,
  });
  route(api, {
    operation: getMediaUsageProgress,
    method: 'get',
    path: '/admin/media-usage/progress',
    summary: 'Activation and historical indexing progress',
    description: operator,
    tags,
  });
  route(api, {
    operation: advanceMediaUsageProgress,
    method: 'post',
    path: '/admin/media-usage/progress',
    summary: 'Run one bounded step of activation or historical indexing',
    description: `Send one at a time, waiting \`nextRequestInMs\` between them, until it is null. ${operator}`,
    tags,
  });
  route(api, {
    operation: listMediaUsageWork,
    method: 'get',
    path: '/admin/media-usage/work',
    summary: 'Usage work items, newest first (no content, references, lease tokens or exact backlog)',
    description: operator,
    tags,
  });
  route(api, {
    operation: getMediaUsageActivation,
    method: 'get',
    path: '/admin/media-usage/activation',
    summary: 'The activation state of media usage tracking',
    description: operator,
    tags,
  });
  route(api, {
    operation: advanceMediaUsageActivation,
    method: 'post',
    path: '/admin/media-usage/activation',
    summary: 'Start activation (`writersDrained: true`), or send the confirmed retry after an error',
    description: `Moves \`expanded\` to \`activating\`; in any other state the answer is the state as it is (activation cannot be cancelled or reset). ${operator}`,
    tags,
  });
  route(api, {
    operation: retryMediaUsageWork,
    method: 'post',
    path: '/admin/media-usage/work/retry',
    summary: 'Run one work item again (idempotent)',
    description: `WORK_LEASE_ACTIVE (with \`details.leaseExpiresAt\`) while a worker holds it; WORK_CHANGED when \`version\` no longer matches. ${operator}`,
    tags,
  });
  route(api, {
    operation: listMediaUsageCollectionDeletions,
    method: 'get',
    path: '/admin/media-usage/collection-deletions',
    summary: 'Work clearing the usage rows of deleted collections',
    description: operator,
    tags,
  });
  route(api, {
    operation: retryMediaUsageCollectionDeletion,
    method: 'post',
    path: '/admin/media-usage/collection-deletions/retry',
    summary: 'Run one collection deletion again (idempotent)',
    description: operator,
    tags,
  });
}

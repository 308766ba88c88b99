import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import type { MediaService } from '../media/index.js';
import type { SchemaService } from '../schema/index.js';
import { activationOps } from './activation.js';
import type { UsageDeps } from './deps.js';
import { writeGate } from './gate.js';
import { listenerOps } from './listeners.js';
import { repairOps } from './repair.js';
import { usageSource } from './source.js';
import { stateOps } from './state.js';
import { workOps } from './work.js';

export type { ActivationView, CollectionProgress, ProgressView } from './activation.js';
export type { CollectionRepair, RepairProgress, RepairResult, RepairStatus } from './repair.js';
export type { WorkItem } from './work-rows.js';

/**
 * Media usage tracking: the index of media references kept in step with
 * entry and schema writes inside their transactions, the counts and pages
 * the media library answers from it, activation for sites written without
 * tracking, work items with leases, and repair.
 */
export function createMediaUsageService(
  ctx: ServiceContext,
  { schema, content, media }: { schema: SchemaService; content: ContentService; media: MediaService },
) {
  // A work item's lease (mediaUsageLeaseMs): long enough for one step, short enough that a dead holder is soon replaced.
  const deps: UsageDeps = {
    ctx,
    schema,
    state: stateOps(ctx),
    batch: ctx.config.mediaUsageBatch,
    leaseMs: ctx.config.mediaUsageLeaseMs,
  };
  const listeners = listenerOps(deps);
  content.hooks.afterWrite('media-usage', listeners.onEntryWrite);
  schema.hooks.afterChange('media-usage', listeners.onSchemaChange);
  media.setUsageSource(usageSource(schema, deps.state));
  const work = workOps(deps);
  const activation = activationOps(deps, work);
  const repairs = repairOps(deps);
  return {
    activation: activation.get,
    activate: activation.advance,
    progress: activation.progress,
    advance: activation.advanceProgress,
    work: (actor: Parameters<typeof work.list>[0], options: Parameters<typeof work.list>[1]) =>
      work.list(actor, options),
    retryWork: (actor: Parameters<typeof work.retry>[0], input: { id: string; version?: number }) =>
      work.retry(actor, input),
    collectionDeletions: (actor: Parameters<typeof work.list>[0], options: { cursor?: string; limit?: number }) =>
      work.list(actor, { ...options, kind: 'collection-deletion' }),
    retryCollectionDeletion: (actor: Parameters<typeof work.retry>[0], input: { id: string; version?: number }) =>
      work.retry(actor, input, 'collection-deletion'),
    repair: repairs.repair,
    /** One bounded part of a collection's repair (site imports); see repair.ts. */
    repairStep: repairs.repairStep,
    /** The write gate of REST and MCP: refuses while activation runs (see gate.ts for what stays open). */
    checkWritesOpen: writeGate(deps.state).check,
    /** Forget the cached activation state (after the state row was changed outside the service). */
    forgetState: () => deps.state.forget(),
  };
}

export type MediaUsageService = ReturnType<typeof createMediaUsageService>;

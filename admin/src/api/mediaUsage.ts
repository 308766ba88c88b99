/** The media usage operator operations (Admins with `schema:manage`) over the typed client. */
import { api, type Schemas, unwrap } from './client';

export type UsageProgress = Schemas['MediaUsageProgress'];
export type UsageWorkItem = Schemas['MediaUsageWorkItem'];
export type UsageRepair = Schemas['MediaUsageRepair'];
export type RepairRequest = Schemas['MediaUsageRepairRequest'];

export const usageKeys = {
  all: ['media-usage'] as const,
  progress: ['media-usage', 'progress'] as const,
  work: (kind: 'index' | 'collection-deletion') => ['media-usage', 'work', kind] as const,
};

export const getUsageProgress = () => unwrap(api.GET('/admin/media-usage/progress'));
/** One bounded step; the answer says how long to wait before the next (`nextRequestInMs`). */
export const advanceUsageProgress = () => unwrap(api.POST('/admin/media-usage/progress'));
/** Start activation, or (retry) the one confirmed retry after `lastErrorCode` was set. */
export const activateUsage = (retry: boolean) =>
  unwrap(api.POST('/admin/media-usage/activation', { body: { writersDrained: true, ...(retry ? { retry } : {}) } }));

export const listUsageWork = (kind: 'index' | 'collection-deletion', cursor?: string) =>
  kind === 'index'
    ? unwrap(api.GET('/admin/media-usage/work', { params: { query: { cursor, limit: 25 } } }))
    : unwrap(api.GET('/admin/media-usage/collection-deletions', { params: { query: { cursor, limit: 25 } } }));

export const retryUsageWork = (item: UsageWorkItem) => {
  const body = { id: item.id, version: item.version };
  return item.kind === 'index'
    ? unwrap(api.POST('/admin/media-usage/work/retry', { body }))
    : unwrap(api.POST('/admin/media-usage/collection-deletions/retry', { body }));
};

export const repairUsage = (body: RepairRequest) => unwrap(api.POST('/admin/media-usage/repair', { body }));

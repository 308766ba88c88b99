import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { MediaUsageWorkTable } from '../../db/tables-usage.js';

export type WorkKind = 'index' | 'collection-deletion';

/** Queue work on a collection (historical indexing, or clearing a deleted collection's rows). */
export async function enqueueWork(
  trx: Kdb,
  kind: WorkKind,
  c: { id: string; slug: string },
  now: string,
): Promise<string> {
  const id = newId();
  await trx
    .insertInto('_cms_media_usage_work')
    .values({
      id,
      kind,
      collection_id: c.id,
      collection_slug: c.slug,
      status: 'pending',
      cursor: null,
      lease_token: null,
      lease_expires_at: null,
      attempts: 0,
      last_error_code: null,
      version: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/**
 * A work item as the work list shows it: no cursor (it is an entry ID), no
 * lease token, no raw error text — a stable code only.
 */
export interface WorkItem {
  id: string;
  kind: WorkKind;
  collection: string;
  status: string;
  attempts: number;
  lastErrorCode: string | null;
  leaseExpiresAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export function presentWork(r: MediaUsageWorkTable): WorkItem {
  return {
    id: r.id,
    kind: r.kind as WorkKind,
    collection: r.collection_slug,
    status: r.status,
    attempts: r.attempts,
    lastErrorCode: r.last_error_code,
    leaseExpiresAt: r.status === 'running' ? r.lease_expires_at : null,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

import { join } from 'node:path';
import type { Actor } from '../../auth/actor.js';
import { can, requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import type { MediaTable } from '../../db/tables-media.js';
import type { Storage } from '../../storage/index.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { UsageSource } from './usage.js';

/** What the media operations are built from. */
export interface MediaDeps {
  ctx: ServiceContext;
  storage: Storage;
  schema: SchemaService;
  /** Where received files wait (on this machine) until they are inspected and stored. */
  tmpDir: string;
  usage: { source: UsageSource };
}

export function mediaDeps(ctx: ServiceContext, storage: Storage, schema: SchemaService, usage: UsageSource): MediaDeps {
  return { ctx, storage, schema, tmpDir: join(ctx.config.dataDir, 'tmp', 'uploads'), usage: { source: usage } };
}

export const nowIso = (deps: MediaDeps) => isoNow(deps.ctx.clock);

/** Authors edit what they uploaded; Editors edit everything. */
export function requireEdit(actor: Actor, row: Pick<MediaTable, 'uploaded_by'>): void {
  const own = actor.userId !== null && row.uploaded_by === actor.userId;
  if (own && can(actor, 'media:edit_own')) return;
  requirePermission(actor, own ? 'media:edit_own' : 'media:edit_any');
}

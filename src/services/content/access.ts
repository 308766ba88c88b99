import { type Actor, can, requirePermission } from '../../auth/actor.js';
import { CmsError, notFound } from '../../core/errors.js';
import type { CollectionInfo } from '../schema/model.js';
import type { EntryRow } from './model.js';

/**
 * Who may see and do what with entries. Subscribers read only published
 * entries; Contributors write their own drafts; Authors publish their own;
 * Editors everything; only Admins delete for good. MCP and REST both land here.
 */
export function requireReader(actor: Actor): void {
  requirePermission(actor, 'content:read');
}

export function canReadDrafts(actor: Actor): boolean {
  return can(actor, 'content:read_drafts');
}

export function requireDraftReader(actor: Actor): void {
  requirePermission(actor, 'content:read_drafts');
}

/**
 * Whether the actor may see this row at all; hidden rows look missing (404), never forbidden.
 * Besides published entries and (with draft access) every entry, a caller sees the entries it may
 * edit: a token with `content:write` but without `content:read` gets back the drafts it writes.
 */
export function visible(actor: Actor, row: EntryRow): boolean {
  if (canReadDrafts(actor)) return true;
  if (row.status === 'published' && row.deleted_at === null) return true;
  return canEdit(actor, row);
}

export function assertVisible(actor: Actor, row: EntryRow | undefined, c: CollectionInfo): EntryRow {
  if (!row || !visible(actor, row)) throw notFound(`Entry in "${c.slug}"`);
  return row;
}

const isOwner = (actor: Actor, row: Pick<EntryRow, 'author_id'>) =>
  actor.userId !== null && actor.userId === row.author_id;

/** Editing: own entries need content:edit_own, others' content:edit_any. */
export function canEdit(actor: Actor, row: Pick<EntryRow, 'author_id'>): boolean {
  if (!can(actor, 'content:create')) return false;
  return can(actor, isOwner(actor, row) ? 'content:edit_own' : 'content:edit_any');
}

export function assertCanEdit(actor: Actor, row: EntryRow): void {
  requirePermission(actor, 'content:create');
  if (isOwner(actor, row)) requirePermission(actor, 'content:edit_own');
  else requirePermission(actor, 'content:edit_any');
}

/** Publishing (and anything that changes what is live): own needs publish_own, others' publish_any. */
export function assertCanPublish(actor: Actor, row: EntryRow): void {
  assertCanEdit(actor, row);
  if (isOwner(actor, row)) requirePermission(actor, 'content:publish_own');
  else requirePermission(actor, 'content:publish_any');
}

export function canPublish(actor: Actor, row: Pick<EntryRow, 'author_id'>): boolean {
  if (actor.userId !== null && actor.userId === row.author_id) return can(actor, 'content:publish_own');
  return can(actor, 'content:publish_any');
}

/**
 * Whether the actor may change a row other than the one it addressed (a write that reaches a whole
 * translation group): changing what is live needs the right to publish that row, changing anything
 * else the right to edit it.
 */
export function mayChange(actor: Actor, row: EntryRow): boolean {
  const live = row.status === 'published' && row.deleted_at === null;
  return live ? canEdit(actor, row) && canPublish(actor, row) : canEdit(actor, row);
}

export function assertCanDeleteForever(actor: Actor): void {
  requirePermission(actor, 'content:delete_permanent');
}

export function forbidden(message: string): CmsError {
  return new CmsError('FORBIDDEN', message);
}

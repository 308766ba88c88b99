import type { Actor } from '../../auth/actor.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import { bylineOps } from './bylines.js';
import { type ContentDeps, collectionFor } from './deps.js';
import { ContentHooks } from './hooks.js';
import { lifecycleOps } from './lifecycle.js';
import { listOps } from './list.js';
import { entryLockOps } from './lock-ops.js';
import { lockOps } from './locks.js';
import type { ContentItem } from './model.js';
import { overviewOps } from './overview.js';
import { previewOps } from './preview.js';
import { readOps } from './read.js';
import { schedulerOps } from './scheduler.js';
import { shownOps } from './shown.js';
import { type CreateInput, type UpdateInput, writeOps } from './write.js';

export type { BylineInput, BylineUpdate } from './bylines.js';
export type {
  BeforeSaveEvent,
  BeforeSaveHook,
  EntryChange,
  EntryChangeKind,
  EntryChangeListener,
} from './hooks.js';
export type { GuardedInput } from './lifecycle.js';
export type { ListOptions, ListResult } from './list.js';
export type { LockState } from './locks.js';
export * from './model.js';
export type { PreviewLink } from './preview.js';
export type { CreateInput, UpdateInput } from './write.js';

/**
 * The content domain: entries and their lifecycle, references, bylines,
 * translations, edit locks and scheduled publishing. Every door (REST, MCP,
 * CLI) calls these functions, so every rule holds everywhere.
 */
export function createContentService(ctx: ServiceContext, schema: SchemaService) {
  const hooks = new ContentHooks();
  const deps: ContentDeps = { ctx, schema, hooks, locks: lockOps(ctx.clock) };
  const write = writeOps(deps);
  const preview = previewOps(deps);
  const read = readOps(deps, preview);
  const life = lifecycleOps(deps);
  const lists = listOps(deps);
  // Reads answer what other domains present on the values too (image srcset); writes answer a read.
  const shown = shownOps(deps);

  /** Write, then answer with the item as the caller sees it (single-read shape). */
  async function thenGet(actor: Actor, collection: string, id: string): Promise<{ item: ContentItem; _rev: string }> {
    return read.get(actor, collection, id).then(shown.one);
  }

  return {
    hooks,
    bylines: bylineOps(ctx, schema),
    locks: entryLockOps(deps),
    /** The admin's views around entries: content model with counts, dashboard lists, reference lookup. */
    overview: overviewOps(deps),
    scheduler: schedulerOps(deps, ctx.log),
    list: (...args: Parameters<typeof lists.list>) => lists.list(...args).then(shown.many),
    listTrashed: (...args: Parameters<typeof lists.listTrashed>) => lists.listTrashed(...args).then(shown.many),
    get: (...args: Parameters<typeof read.get>) => read.get(...args).then(shown.one),
    referencePage: read.referencePage,
    compare: read.compare,
    translations: read.translations,
    authors: read.authors,
    revisions: read.revisions,
    /** Preview links for the site's front end (preview.ts); reads take the token through `get`. */
    preview: { link: preview.link, rotate: preview.rotate, frontendUrl: preview.frontendUrl },
    async create(actor: Actor, collection: string, input: CreateInput) {
      const row = await write.create(actor, collection, input);
      return thenGet(actor, collection, row.id);
    },
    async update(actor: Actor, collection: string, id: string, input: UpdateInput) {
      await write.update(actor, collection, id, input);
      return thenGet(actor, collection, id);
    },
    async publish(actor: Actor, collection: string, id: string, input = {}) {
      await life.publish(actor, collection, id, input);
      return thenGet(actor, collection, id);
    },
    async unpublish(actor: Actor, collection: string, id: string, input = {}) {
      await life.unpublish(actor, collection, id, input);
      return thenGet(actor, collection, id);
    },
    async schedule(
      actor: Actor,
      collection: string,
      id: string,
      input: { scheduledAt: string; _rev?: string; overrideLock?: boolean },
    ) {
      await life.schedule(actor, collection, id, input);
      return thenGet(actor, collection, id);
    },
    async unschedule(actor: Actor, collection: string, id: string, input = {}) {
      await life.unschedule(actor, collection, id, input);
      return thenGet(actor, collection, id);
    },
    async discardDraft(actor: Actor, collection: string, id: string, input = {}) {
      await life.discardDraft(actor, collection, id, input);
      return thenGet(actor, collection, id);
    },
    async trash(actor: Actor, collection: string, id: string, input = {}) {
      await life.trash(actor, collection, id, input);
      return thenGet(actor, collection, id);
    },
    async restore(actor: Actor, collection: string, id: string, input = {}) {
      await life.restore(actor, collection, id, input);
      return thenGet(actor, collection, id);
    },
    async permanentDelete(actor: Actor, collection: string, id: string, input = {}) {
      await life.permanentDelete(actor, collection, id, input);
      return { deleted: true as const, id };
    },
    async duplicate(actor: Actor, collection: string, id: string) {
      const row = await life.duplicate(actor, collection, id);
      return thenGet(actor, collection, row.id);
    },
    async restoreRevision(actor: Actor, collection: string, id: string, revisionId: string, input = {}) {
      await life.restoreRevision(actor, collection, id, revisionId, input);
      return thenGet(actor, collection, id);
    },
    /** Resolve a collection (404 when unknown); used by doors that need its shape. */
    collection: (slug: string) => collectionFor(deps, slug).then((r) => r.c),
  };
}

export type ContentService = ReturnType<typeof createContentService>;

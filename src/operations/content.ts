import { z } from 'zod';
import {
  ContentModelQuery,
  ContentModelResult,
  DashboardResult,
  LookupParams,
  LookupQuery,
  LookupResult,
  RevisionList,
  RevisionListQuery,
  RevisionPathParams,
} from '../schemas/admin-content.js';
import {
  AcquireLockBody,
  AuthorsResult,
  CollectionPathParams,
  CompareResult,
  ContentList,
  CreateContentBody,
  EntryPathParams,
  GetContentQuery,
  GuardedBody,
  GuardedQuery,
  ListContentQuery,
  LockStateSchema,
  PermanentDeleteResult,
  ReferencePageSchema,
  ReleaseLockQuery,
  ScheduleBody,
  SingleContent,
  TranslationsResult,
  UpdateContentBody,
} from '../schemas/content.js';
import { listOptions } from '../schemas/content-list.js';
import { GetContentPreviewQuery, PreviewLinkSchema, PreviewRotateResult } from '../schemas/preview.js';
import type { Services } from '../services/index.js';
import { operation } from './operation.js';

/**
 * The content operations (spec: the "Content" table, the admin's content views; MCP content_*,
 * revision_*). The rules live in the content service; each operation is one call of it.
 */
const READS = 'content:read';
const WRITES = 'content:write';

/** Single reads and writes through MCP also carry the entry's terms, per taxonomy. */
const WithTerms = SingleContent.extend({
  terms: z
    .record(z.string(), z.array(z.object({ id: z.string(), slug: z.string(), label: z.string() })))
    .describe('Taxonomy name → terms of the entry (shared by its translations)'),
});

async function withTermSummary<T extends { item: { id: string; translationGroup: string; locale: string } }>(
  services: Services,
  collection: string,
  single: T,
) {
  return { ...single, terms: await services.taxonomies.entryTerms.summary(collection, single.item) };
}

export const rotateContentPreviewSecret = operation({
  id: 'rotateContentPreviewSecret',
  output: PreviewRotateResult,
  writes: true,
  scope: 'settings:manage',
  run: ({ services, actor }) => services.content.preview.rotate(actor),
});

export const listTrashedContent = operation({
  id: 'listTrashedContent',
  params: CollectionPathParams,
  query: ListContentQuery,
  output: ContentList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) =>
    services.content.listTrashed(actor, params.collection, listOptions(query)),
});

export const listContentAuthors = operation({
  id: 'listContentAuthors',
  params: CollectionPathParams,
  output: AuthorsResult,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.content.authors(actor, params.collection),
});

export const listContent = operation({
  id: 'listContent',
  params: CollectionPathParams,
  query: ListContentQuery,
  output: ContentList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) => services.content.list(actor, params.collection, listOptions(query)),
});

export const createContent = operation({
  id: 'createContent',
  params: CollectionPathParams,
  body: CreateContentBody,
  output: SingleContent,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.content.create(actor, params.collection, body),
});

/** Create, answered with the entry's terms (MCP content_create; REST answers the entry alone). */
export const createContentWithTerms = operation({
  id: 'createContentWithTerms',
  params: CollectionPathParams,
  body: CreateContentBody,
  output: WithTerms,
  writes: true,
  scope: WRITES,
  run: async ({ services, actor }, { params, body }) =>
    withTermSummary(services, params.collection, await services.content.create(actor, params.collection, body)),
});

/** A preview token (the query's `preview`; REST also takes it from a header) reads the token's entry with its draft. */
export const getContent = operation({
  id: 'getContent',
  params: EntryPathParams,
  query: GetContentPreviewQuery,
  output: SingleContent,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) =>
    services.content.get(actor, params.collection, params.id, { locale: query.locale, preview: query.preview }),
});

/** Get, answered with the entry's terms (MCP content_get; no preview tokens there). */
export const getContentWithTerms = operation({
  id: 'getContentWithTerms',
  params: EntryPathParams,
  query: GetContentQuery,
  output: WithTerms,
  writes: false,
  scope: READS,
  run: async ({ services, actor }, { params, query }) =>
    withTermSummary(
      services,
      params.collection,
      await services.content.get(actor, params.collection, params.id, { locale: query.locale }),
    ),
});

export const updateContent = operation({
  id: 'updateContent',
  params: EntryPathParams,
  body: UpdateContentBody,
  output: SingleContent,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.content.update(actor, params.collection, params.id, body),
});

/** Update, answered with the entry's terms (MCP content_update). */
export const updateContentWithTerms = operation({
  id: 'updateContentWithTerms',
  params: EntryPathParams,
  body: UpdateContentBody,
  output: WithTerms,
  writes: true,
  scope: WRITES,
  run: async ({ services, actor }, { params, body }) =>
    withTermSummary(
      services,
      params.collection,
      await services.content.update(actor, params.collection, params.id, body),
    ),
});

export const deleteContent = operation({
  id: 'deleteContent',
  params: EntryPathParams,
  query: GuardedQuery,
  output: SingleContent,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, query }) => services.content.trash(actor, params.collection, params.id, query),
});

/** The guarded lifecycle steps: each a POST of `_rev` and `overrideLock` on the entry. */
const lifecycle = (id: string, step: 'publish' | 'unpublish' | 'restore' | 'discardDraft') =>
  operation({
    id,
    params: EntryPathParams,
    body: GuardedBody,
    output: SingleContent,
    writes: true,
    scope: WRITES,
    run: ({ services, actor }, { params, body }) => services.content[step](actor, params.collection, params.id, body),
  });

export const publishContent = lifecycle('publishContent', 'publish');
export const unpublishContent = lifecycle('unpublishContent', 'unpublish');
export const restoreContent = lifecycle('restoreContent', 'restore');
export const discardDraft = lifecycle('discardDraft', 'discardDraft');

/** Duplicate takes the guarded body of its siblings and uses none of it. */
export const duplicateContent = operation({
  id: 'duplicateContent',
  params: EntryPathParams,
  body: GuardedBody,
  output: SingleContent,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params }) => services.content.duplicate(actor, params.collection, params.id),
});

export const scheduleContent = operation({
  id: 'scheduleContent',
  params: EntryPathParams,
  body: ScheduleBody,
  output: SingleContent,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.content.schedule(actor, params.collection, params.id, body),
});

export const unscheduleContent = operation({
  id: 'unscheduleContent',
  params: EntryPathParams,
  query: GuardedQuery,
  output: SingleContent,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, query }) =>
    services.content.unschedule(actor, params.collection, params.id, query),
});

export const permanentDeleteContent = operation({
  id: 'permanentDeleteContent',
  params: EntryPathParams,
  query: GuardedQuery,
  output: PermanentDeleteResult,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, query }) =>
    services.content.permanentDelete(actor, params.collection, params.id, query),
});

export const compareContent = operation({
  id: 'compareContent',
  params: EntryPathParams,
  output: CompareResult,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.content.compare(actor, params.collection, params.id),
});

export const getContentTranslations = operation({
  id: 'getContentTranslations',
  params: EntryPathParams,
  query: GetContentQuery,
  output: TranslationsResult,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) =>
    services.content.translations(actor, params.collection, params.id, { locale: query.locale }),
});

export const getContentPreviewUrl = operation({
  id: 'getContentPreviewUrl',
  params: EntryPathParams,
  output: PreviewLinkSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.content.preview.link(actor, params.collection, params.id),
});

export const getEntryLock = operation({
  id: 'getEntryLock',
  params: EntryPathParams,
  output: LockStateSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.content.locks.get(actor, params.collection, params.id),
});

export const acquireEntryLock = operation({
  id: 'acquireEntryLock',
  params: EntryPathParams,
  body: AcquireLockBody,
  output: LockStateSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) =>
    services.content.locks.acquire(actor, params.collection, params.id, body),
});

export const releaseEntryLock = operation({
  id: 'releaseEntryLock',
  params: EntryPathParams,
  query: ReleaseLockQuery,
  output: LockStateSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, query }) =>
    services.content.locks.release(actor, params.collection, params.id, query.token ?? null),
});

/** The next page of a reference field (link traversal; not part of the documented contract). */
export const listContentReferences = operation({
  id: 'listContentReferences',
  params: EntryPathParams.extend({ field: z.string().min(1).max(63) }),
  query: z.object({ cursor: z.string().optional() }),
  output: ReferencePageSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) =>
    services.content.referencePage(actor, params.collection, params.id, params.field, query.cursor),
});

export const getContentModel = operation({
  id: 'getContentModel',
  query: ContentModelQuery,
  output: ContentModelResult,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) => services.content.overview.model(actor, { locale: query.locale }),
});

export const getContentDashboard = operation({
  id: 'getContentDashboard',
  query: ContentModelQuery,
  output: DashboardResult,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) => services.content.overview.dashboard(actor, { locale: query.locale }),
});

export const lookupContent = operation({
  id: 'lookupContent',
  params: LookupParams,
  query: LookupQuery,
  output: LookupResult,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) =>
    services.content.overview.lookup(actor, params.collection, {
      q: query.q,
      locale: query.locale,
      limit: query.limit,
    }),
});

export const listContentRevisions = operation({
  id: 'listContentRevisions',
  params: EntryPathParams,
  query: RevisionListQuery,
  output: RevisionList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) =>
    services.content.revisions(actor, params.collection, params.id, query),
});

export const restoreContentRevision = operation({
  id: 'restoreContentRevision',
  params: RevisionPathParams,
  body: GuardedBody,
  output: SingleContent,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) =>
    services.content.restoreRevision(actor, params.collection, params.id, params.revisionId, body),
});

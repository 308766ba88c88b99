import { z } from 'zod';
import {
  compareContent,
  createContentWithTerms,
  deleteContent,
  discardDraft,
  duplicateContent,
  getContentPreviewUrl,
  getContentTranslations,
  getContentWithTerms,
  listContent,
  listTrashedContent,
  publishContent,
  restoreContent,
  scheduleContent,
  unpublishContent,
  unscheduleContent,
  updateContentWithTerms,
} from '../../operations/content.js';
import type { AnyOperation } from '../../operations/operation.js';
import {
  CreateContentBody,
  GuardedBody,
  ListContentQuery,
  ScheduleBody,
  UpdateContentBody,
} from '../../schemas/content.js';
import { DESTRUCTIVE, READ, type ToolDef, tool, toolOf, WRITE } from '../registry.js';

const Collection = z.object({ collection: z.string().min(1).describe('Collection slug') });

const Entry = Collection.extend({ id: z.string().min(1).describe('Database ID of the entry') });
const EntryOrSlug = Collection.extend({
  id: z.string().min(1).describe('Database ID or slug of the entry'),
  locale: z.string().optional().describe('Locale of a slug lookup'),
});
const Guarded = Entry.extend(GuardedBody.shape);
type GuardedArgs = z.output<typeof Guarded>;

const entryOf = (a: { collection: string; id: string }) => ({ collection: a.collection, id: a.id });
/** The guard as the REST query carries it (a DELETE has no body). */
const guardQuery = (a: GuardedArgs) => ({
  _rev: a._rev,
  overrideLock: a.overrideLock === undefined ? undefined : String(a.overrideLock),
});

/** content_list takes the REST list parameters, with fieldFilters as an object. */
const ListInput = Collection.extend(ListContentQuery.shape).extend({
  fieldFilters: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Indexed field → value or { eq, ne, gt, gte, lt, lte, in }'),
  includeAuthorByline: z.boolean().optional(),
});

const guarded = (name: string, title: string, description: string, operation: AnyOperation) =>
  toolOf(operation, {
    name,
    title,
    description,
    annotations: WRITE,
    input: Guarded,
    toArgs: (a) => ({ params: entryOf(a), body: { _rev: a._rev, overrideLock: a.overrideLock } }),
  });

export const contentTools: ToolDef[] = [
  toolOf(listContent, {
    name: 'content_list',
    title: 'List Content',
    description: 'List entries of a collection (cursor or numbered pages; orderBy and fieldFilters on indexed fields).',
    annotations: READ,
    input: ListInput,
    // The list query as REST carries it: fieldFilters as JSON text, the flag as text.
    toArgs: ({ collection, fieldFilters, includeAuthorByline, ...query }) => ({
      params: { collection },
      query: {
        ...query,
        fieldFilters: fieldFilters === undefined ? undefined : JSON.stringify(fieldFilters),
        includeAuthorByline: includeAuthorByline === undefined ? undefined : String(includeAuthorByline),
      },
    }),
  }),
  toolOf(getContentWithTerms, {
    name: 'content_get',
    title: 'Get Content',
    description: 'Get one entry by ID or slug, with its references and an opaque _rev to pass to later writes.',
    annotations: READ,
    input: EntryOrSlug,
    toArgs: (a) => ({ params: entryOf(a), query: { locale: a.locale } }),
  }),
  toolOf(createContentWithTerms, {
    name: 'content_create',
    title: 'Create Content',
    description:
      'Create an entry as a draft (or a translation with locale + translationOf, which shares the source’s terms). `terms` sets taxonomy terms in the same transaction.',
    annotations: WRITE,
    input: Collection.extend(CreateContentBody.shape),
    toArgs: ({ collection, ...body }) => ({ params: { collection }, body }),
  }),
  toolOf(updateContentWithTerms, {
    name: 'content_update',
    title: 'Update Content',
    description:
      'Partially update an entry; on a published entry the change is staged as a draft. Pass _rev from content_get. `terms` replaces taxonomy terms in the same transaction; terms are shared by every translation and are not staged, so changing them needs the right to change (and publish, when live) every translation.',
    annotations: WRITE,
    input: Entry.extend(UpdateContentBody.shape),
    toArgs: ({ collection, id, ...body }) => ({ params: { collection, id }, body }),
  }),
  toolOf(deleteContent, {
    name: 'content_delete',
    title: 'Delete Content (Trash)',
    description: 'Move an entry to the trash (restorable).',
    annotations: WRITE,
    input: Guarded,
    toArgs: (a) => ({ params: entryOf(a), query: guardQuery(a) }),
  }),
  guarded('content_restore', 'Restore Content', 'Restore a trashed entry as a draft.', restoreContent),
  // The REST operation answers `{ deleted, id }`; the tool has always answered without an output schema.
  tool({
    name: 'content_permanent_delete',
    title: 'Permanently Delete Content',
    description: 'Delete a trashed entry for good. Cannot be undone.',
    scope: 'content:write',
    annotations: DESTRUCTIVE,
    input: Guarded,
    run: ({ services, actor }, a) =>
      services.content.permanentDelete(actor, a.collection, a.id, { _rev: a._rev, overrideLock: a.overrideLock }),
  }),
  guarded('content_publish', 'Publish Content', 'Publish the entry: its pending draft becomes live.', publishContent),
  guarded(
    'content_unpublish',
    'Unpublish Content',
    'Take the entry off the live site; content and date are kept.',
    unpublishContent,
  ),
  toolOf(scheduleContent, {
    name: 'content_schedule',
    title: 'Schedule Content',
    description: 'Schedule a future publication (ISO 8601 with Z or an offset).',
    annotations: WRITE,
    input: Entry.extend(ScheduleBody.shape),
    toArgs: ({ collection, id, ...body }) => ({ params: { collection, id }, body }),
  }),
  toolOf(unscheduleContent, {
    name: 'content_unschedule',
    title: 'Cancel Scheduled Publication',
    description: 'Cancel a scheduled publication.',
    annotations: WRITE,
    input: Guarded,
    toArgs: (a) => ({ params: entryOf(a), query: guardQuery(a) }),
  }),
  toolOf(compareContent, {
    name: 'content_compare',
    title: 'Compare Live vs Draft',
    description: 'Compare the live version of an entry with its pending draft.',
    annotations: READ,
    input: Entry,
    toArgs: (a) => ({ params: a }),
  }),
  guarded('content_discard_draft', 'Discard Draft', 'Discard the pending draft; the live version stays.', discardDraft),
  toolOf(listTrashedContent, {
    name: 'content_list_trashed',
    title: 'List Trashed Content',
    description: 'List entries in the trash.',
    annotations: READ,
    input: Collection.extend({
      locale: z.string().optional(),
      cursor: z.string().optional(),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).max(100).optional(),
    }),
    toArgs: ({ collection, ...query }) => ({ params: { collection }, query }),
  }),
  toolOf(duplicateContent, {
    name: 'content_duplicate',
    title: 'Duplicate Content',
    description: 'Duplicate an entry as a new draft with a unique slug.',
    annotations: WRITE,
    input: Entry,
    toArgs: (a) => ({ params: a, body: {} }),
  }),
  toolOf(getContentTranslations, {
    name: 'content_translations',
    title: 'Get Content Translations',
    description: 'Every locale variant of an entry (by ID or slug) in its translation group.',
    annotations: READ,
    input: EntryOrSlug,
    toArgs: (a) => ({ params: entryOf(a), query: { locale: a.locale } }),
  }),
  // Beyond the spec's inventory (as REST's getContentPreviewUrl is beyond its tables): drafts are read
  // with content:read plus the role's content:read_drafts, so that is what a preview link needs.
  toolOf(getContentPreviewUrl, {
    name: 'content_preview_url',
    title: 'Get Content Preview Link',
    description:
      "A signed, expiring link to the entry's draft on the site's front end (url null when the site address, the collection's URL pattern or the slug is missing) and its token, which reads this one draft through GET /content/{collection}/{id}?preview=<token>.",
    annotations: READ,
    input: Entry,
    toArgs: (a) => ({ params: a }),
  }),
];

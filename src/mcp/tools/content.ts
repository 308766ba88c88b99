import { z } from 'zod';
import {
  CompareResult,
  ContentList,
  CreateContentBody,
  GuardedBody,
  ListContentQuery,
  ScheduleBody,
  SingleContent,
  TranslationsResult,
  UpdateContentBody,
} from '../../schemas/content.js';
import { listOptions } from '../../schemas/content-list.js';
import { PreviewLinkSchema } from '../../schemas/preview.js';
import { DESTRUCTIVE, READ, type ToolContext, type ToolDef, tool, WRITE } from '../registry.js';

const Collection = z.object({ collection: z.string().min(1).describe('Collection slug') });

/** Single reads through MCP also carry the entry's terms, per taxonomy. */
const WithTerms = SingleContent.extend({
  terms: z
    .record(z.string(), z.array(z.object({ id: z.string(), slug: z.string(), label: z.string() })))
    .describe('Taxonomy name → terms of the entry (shared by its translations)'),
});

async function withTermSummary(
  services: ToolContext['services'],
  collection: string,
  single: { item: { id: string; translationGroup: string; locale: string }; _rev: string },
) {
  return { ...single, terms: await services.taxonomies.entryTerms.summary(collection, single.item) };
}
const Entry = Collection.extend({ id: z.string().min(1).describe('Database ID of the entry') });
const EntryOrSlug = Collection.extend({
  id: z.string().min(1).describe('Database ID or slug of the entry'),
  locale: z.string().optional().describe('Locale of a slug lookup'),
});

/** content_list takes the REST list parameters, with fieldFilters as an object. */
const ListInput = Collection.extend(ListContentQuery.shape).extend({
  fieldFilters: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Indexed field → value or { eq, ne, gt, gte, lt, lte, in }'),
  includeAuthorByline: z.boolean().optional(),
});

const guarded = (
  name: string,
  title: string,
  description: string,
  op: 'publish' | 'unpublish' | 'discardDraft' | 'restore',
) =>
  tool({
    name,
    title,
    description,
    scope: 'content:write',
    annotations: WRITE,
    input: Entry.extend(GuardedBody.shape),
    output: SingleContent,
    run: ({ services, actor }, a) =>
      services.content[op](actor, a.collection, a.id, { _rev: a._rev, overrideLock: a.overrideLock }),
  });

export const contentTools: ToolDef[] = [
  tool({
    name: 'content_list',
    title: 'List Content',
    description: 'List entries of a collection (cursor or numbered pages; orderBy and fieldFilters on indexed fields).',
    scope: 'content:read',
    annotations: READ,
    input: ListInput,
    output: ContentList,
    run: ({ services, actor }, a) => services.content.list(actor, a.collection, listOptions(a)),
  }),
  tool({
    name: 'content_get',
    title: 'Get Content',
    description: 'Get one entry by ID or slug, with its references and an opaque _rev to pass to later writes.',
    scope: 'content:read',
    annotations: READ,
    input: EntryOrSlug,
    output: WithTerms,
    run: async ({ services, actor }, a) =>
      withTermSummary(
        services,
        a.collection,
        await services.content.get(actor, a.collection, a.id, { locale: a.locale }),
      ),
  }),
  tool({
    name: 'content_create',
    title: 'Create Content',
    description:
      'Create an entry as a draft (or a translation with locale + translationOf, which shares the source’s terms). `terms` sets taxonomy terms in the same transaction.',
    scope: 'content:write',
    annotations: WRITE,
    input: Collection.extend(CreateContentBody.shape),
    output: WithTerms,
    run: async ({ services, actor }, { collection, ...body }) =>
      withTermSummary(services, collection, await services.content.create(actor, collection, body)),
  }),
  tool({
    name: 'content_update',
    title: 'Update Content',
    description:
      'Partially update an entry; on a published entry the change is staged as a draft. Pass _rev from content_get. `terms` replaces taxonomy terms in the same transaction; terms are shared by every translation and are not staged, so changing them needs the right to change (and publish, when live) every translation.',
    scope: 'content:write',
    annotations: WRITE,
    input: Entry.extend(UpdateContentBody.shape),
    output: WithTerms,
    run: async ({ services, actor }, { collection, id, ...body }) =>
      withTermSummary(services, collection, await services.content.update(actor, collection, id, body)),
  }),
  tool({
    name: 'content_delete',
    title: 'Delete Content (Trash)',
    description: 'Move an entry to the trash (restorable).',
    scope: 'content:write',
    annotations: WRITE,
    input: Entry.extend(GuardedBody.shape),
    output: SingleContent,
    run: ({ services, actor }, a) =>
      services.content.trash(actor, a.collection, a.id, { _rev: a._rev, overrideLock: a.overrideLock }),
  }),
  guarded('content_restore', 'Restore Content', 'Restore a trashed entry as a draft.', 'restore'),
  tool({
    name: 'content_permanent_delete',
    title: 'Permanently Delete Content',
    description: 'Delete a trashed entry for good. Cannot be undone.',
    scope: 'content:write',
    annotations: DESTRUCTIVE,
    input: Entry.extend(GuardedBody.shape),
    run: ({ services, actor }, a) =>
      services.content.permanentDelete(actor, a.collection, a.id, { _rev: a._rev, overrideLock: a.overrideLock }),
  }),
  guarded('content_publish', 'Publish Content', 'Publish the entry: its pending draft becomes live.', 'publish'),
  guarded(
    'content_unpublish',
    'Unpublish Content',
    'Take the entry off the live site; content and date are kept.',
    'unpublish',
  ),
  tool({
    name: 'content_schedule',
    title: 'Schedule Content',
    description: 'Schedule a future publication (ISO 8601 with Z or an offset).',
    scope: 'content:write',
    annotations: WRITE,
    input: Entry.extend(ScheduleBody.shape),
    output: SingleContent,
    run: ({ services, actor }, { collection, id, ...body }) => services.content.schedule(actor, collection, id, body),
  }),
  tool({
    name: 'content_unschedule',
    title: 'Cancel Scheduled Publication',
    description: 'Cancel a scheduled publication.',
    scope: 'content:write',
    annotations: WRITE,
    input: Entry.extend(GuardedBody.shape),
    output: SingleContent,
    run: ({ services, actor }, a) =>
      services.content.unschedule(actor, a.collection, a.id, { _rev: a._rev, overrideLock: a.overrideLock }),
  }),
  tool({
    name: 'content_compare',
    title: 'Compare Live vs Draft',
    description: 'Compare the live version of an entry with its pending draft.',
    scope: 'content:read',
    annotations: READ,
    input: Entry,
    output: CompareResult,
    run: ({ services, actor }, a) => services.content.compare(actor, a.collection, a.id),
  }),
  guarded(
    'content_discard_draft',
    'Discard Draft',
    'Discard the pending draft; the live version stays.',
    'discardDraft',
  ),
  tool({
    name: 'content_list_trashed',
    title: 'List Trashed Content',
    description: 'List entries in the trash.',
    scope: 'content:read',
    annotations: READ,
    input: Collection.extend({
      locale: z.string().optional(),
      cursor: z.string().optional(),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).max(100).optional(),
    }),
    output: ContentList,
    run: ({ services, actor }, { collection, ...opts }) =>
      services.content.listTrashed(actor, collection, listOptions(opts)),
  }),
  tool({
    name: 'content_duplicate',
    title: 'Duplicate Content',
    description: 'Duplicate an entry as a new draft with a unique slug.',
    scope: 'content:write',
    annotations: WRITE,
    input: Entry,
    output: SingleContent,
    run: ({ services, actor }, a) => services.content.duplicate(actor, a.collection, a.id),
  }),
  tool({
    name: 'content_translations',
    title: 'Get Content Translations',
    description: 'Every locale variant of an entry (by ID or slug) in its translation group.',
    scope: 'content:read',
    annotations: READ,
    input: EntryOrSlug,
    output: TranslationsResult,
    run: ({ services, actor }, a) => services.content.translations(actor, a.collection, a.id, { locale: a.locale }),
  }),
  // Beyond the spec's inventory (as REST's getContentPreviewUrl is beyond its tables): drafts are read
  // with content:read plus the role's content:read_drafts, so that is what a preview link needs.
  tool({
    name: 'content_preview_url',
    title: 'Get Content Preview Link',
    description:
      "A signed, expiring link to the entry's draft on the site's front end (url null when the site address, the collection's URL pattern or the slug is missing) and its token, which reads this one draft through GET /content/{collection}/{id}?preview=<token>.",
    scope: 'content:read',
    annotations: READ,
    input: Entry,
    output: PreviewLinkSchema,
    run: ({ services, actor }, a) => services.content.preview.link(actor, a.collection, a.id),
  }),
];

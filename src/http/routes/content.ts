import { z } from '@hono/zod-openapi';
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
} from '../../schemas/content.js';
import { listOptions } from '../../schemas/content-list.js';
import { GetContentPreviewQuery, PreviewLinkSchema, PreviewRotateResult } from '../../schemas/preview.js';
import { type Api, op } from '../op.js';

/** Where a read may carry a preview token besides `?preview=` (docs/frontends.md). */
const PREVIEW_HEADER = 'x-cms-preview';

/** Routes of the spec's "Content" table. Rules live in the content service. */
export function contentRoutes(api: Api): void {
  const tags = ['Content'];
  const base = '/content/{collection}';
  const entry = `${base}/{id}`;

  op(
    api,
    {
      method: 'post',
      path: '/content/preview/rotate',
      operationId: 'rotateContentPreviewSecret',
      summary: 'Rotate the preview secret: every preview link made so far stops working (Admins)',
      tags,
      response: PreviewRotateResult,
    },
    async ({ actor, services }) => services.content.preview.rotate(actor),
  );

  // Collection-level routes first: `trash` and `authors` must win over `{id}`.
  op(
    api,
    {
      method: 'get',
      path: `${base}/trash`,
      operationId: 'listTrashedContent',
      summary: 'List entries in the trash',
      tags,
      params: CollectionPathParams,
      query: ListContentQuery,
      response: ContentList,
    },
    async ({ actor, services, params, query }) =>
      services.content.listTrashed(actor, params.collection, listOptions(query)),
  );
  op(
    api,
    {
      method: 'get',
      path: `${base}/authors`,
      operationId: 'listContentAuthors',
      summary: 'List the users who authored entries of the collection',
      tags,
      params: CollectionPathParams,
      response: AuthorsResult,
    },
    async ({ actor, services, params }) => services.content.authors(actor, params.collection),
  );
  op(
    api,
    {
      method: 'get',
      path: base,
      operationId: 'listContent',
      errors: { 403: 'A `preview` token that is not valid (PREVIEW_TOKEN_INVALID)' },
      summary: 'List entries (cursor or numbered pages)',
      tags,
      params: CollectionPathParams,
      query: ListContentQuery,
      response: ContentList,
    },
    async ({ actor, services, params, query }) => services.content.list(actor, params.collection, listOptions(query)),
  );
  op(
    api,
    {
      method: 'post',
      path: base,
      operationId: 'createContent',
      summary: 'Create an entry (a draft) or a translation of one',
      tags,
      params: CollectionPathParams,
      body: CreateContentBody,
      response: SingleContent,
      status: 201,
    },
    async ({ actor, services, params, body }) => services.content.create(actor, params.collection, body),
  );
  op(
    api,
    {
      method: 'get',
      path: entry,
      operationId: 'getContent',
      errors: { 403: 'A `preview` token that is not valid (PREVIEW_TOKEN_INVALID)' },
      summary: 'Get an entry by database ID or slug',
      description:
        'With a preview token (`?preview=` or the `X-CMS-Preview` header) the answer is the token’s entry with its pending draft, for anyone; a read of another entry with it is 403 PREVIEW_TOKEN_INVALID.',
      tags,
      params: EntryPathParams,
      query: GetContentPreviewQuery,
      response: SingleContent,
    },
    async ({ actor, services, params, query, c }) => {
      const preview = query.preview ?? (c.req.header(PREVIEW_HEADER) || undefined);
      // A draft read through a link must never be kept by a cache (errors included: they say why).
      if (preview !== undefined) c.header('Cache-Control', 'no-store');
      return services.content.get(actor, params.collection, params.id, { locale: query.locale, preview });
    },
  );
  op(
    api,
    {
      method: 'put',
      path: entry,
      operationId: 'updateContent',
      summary: 'Partially update an entry (stages a draft on a published entry)',
      tags,
      params: EntryPathParams,
      body: UpdateContentBody,
      response: SingleContent,
    },
    async ({ actor, services, params, body }) => services.content.update(actor, params.collection, params.id, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: entry,
      operationId: 'deleteContent',
      summary: 'Move an entry to the trash',
      tags,
      params: EntryPathParams,
      query: GuardedQuery,
      response: SingleContent,
    },
    async ({ actor, services, params, query }) => services.content.trash(actor, params.collection, params.id, query),
  );

  const guardedPost = (
    path: string,
    operationId: string,
    summary: string,
    run: 'publish' | 'unpublish' | 'duplicate' | 'restore' | 'discardDraft',
  ) =>
    op(
      api,
      {
        method: 'post',
        path: `${entry}/${path}`,
        operationId,
        summary,
        tags,
        params: EntryPathParams,
        body: GuardedBody,
        response: SingleContent,
        status: run === 'duplicate' ? 201 : 200,
      },
      async ({ actor, services, params, body }) =>
        run === 'duplicate'
          ? services.content.duplicate(actor, params.collection, params.id)
          : services.content[run](actor, params.collection, params.id, body),
    );
  guardedPost('publish', 'publishContent', 'Publish the entry (its pending draft becomes live)', 'publish');
  guardedPost('unpublish', 'unpublishContent', 'Take the entry off the live site (content and date kept)', 'unpublish');
  guardedPost('duplicate', 'duplicateContent', 'Duplicate the entry as a new draft', 'duplicate');
  guardedPost('restore', 'restoreContent', 'Restore a trashed entry as a draft', 'restore');
  guardedPost('discard-draft', 'discardDraft', 'Discard the pending draft (the live version stays)', 'discardDraft');

  op(
    api,
    {
      method: 'post',
      path: `${entry}/schedule`,
      operationId: 'scheduleContent',
      summary: 'Schedule a future publication',
      tags,
      params: EntryPathParams,
      body: ScheduleBody,
      response: SingleContent,
    },
    async ({ actor, services, params, body }) => services.content.schedule(actor, params.collection, params.id, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: `${entry}/schedule`,
      operationId: 'unscheduleContent',
      summary: 'Cancel a scheduled publication',
      tags,
      params: EntryPathParams,
      query: GuardedQuery,
      response: SingleContent,
    },
    async ({ actor, services, params, query }) =>
      services.content.unschedule(actor, params.collection, params.id, query),
  );
  op(
    api,
    {
      method: 'delete',
      path: `${entry}/permanent`,
      operationId: 'permanentDeleteContent',
      summary: 'Delete a trashed entry for good (cannot be undone)',
      tags,
      params: EntryPathParams,
      query: GuardedQuery,
      response: PermanentDeleteResult,
    },
    async ({ actor, services, params, query }) =>
      services.content.permanentDelete(actor, params.collection, params.id, query),
  );
  op(
    api,
    {
      method: 'get',
      path: `${entry}/compare`,
      operationId: 'compareContent',
      summary: 'Compare the live version with the pending draft',
      tags,
      params: EntryPathParams,
      response: CompareResult,
    },
    async ({ actor, services, params }) => services.content.compare(actor, params.collection, params.id),
  );
  op(
    api,
    {
      method: 'get',
      path: `${entry}/translations`,
      operationId: 'getContentTranslations',
      summary: 'Translation group and every locale variant of the entry',
      tags,
      params: EntryPathParams,
      query: GetContentQuery,
      response: TranslationsResult,
    },
    async ({ actor, services, params, query }) =>
      services.content.translations(actor, params.collection, params.id, { locale: query.locale }),
  );

  op(
    api,
    {
      method: 'get',
      path: `${entry}/preview-url`,
      operationId: 'getContentPreviewUrl',
      summary: 'A signed, expiring preview link to the entry’s draft on the site’s front end',
      description:
        'Contributors and up (draft readers). The token reads this entry’s draft through getContent and nothing else; it lasts `previewTokenTtl` seconds and rotating the preview secret revokes every token.',
      tags,
      params: EntryPathParams,
      response: PreviewLinkSchema,
    },
    async ({ actor, services, params }) => services.content.preview.link(actor, params.collection, params.id),
  );

  // Edit locks
  op(
    api,
    {
      method: 'get',
      path: `${entry}/lock`,
      operationId: 'getEntryLock',
      summary: 'Edit lock state',
      tags,
      params: EntryPathParams,
      response: LockStateSchema,
    },
    async ({ actor, services, params }) => services.content.locks.get(actor, params.collection, params.id),
  );
  op(
    api,
    {
      method: 'post',
      path: `${entry}/lock`,
      operationId: 'acquireEntryLock',
      summary: 'Take or extend the 7-minute edit lease',
      tags,
      params: EntryPathParams,
      body: AcquireLockBody,
      response: LockStateSchema,
    },
    async ({ actor, services, params, body }) =>
      services.content.locks.acquire(actor, params.collection, params.id, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: `${entry}/lock`,
      operationId: 'releaseEntryLock',
      summary: 'Release the edit lease (pass the token it was taken with)',
      tags,
      params: EntryPathParams,
      query: ReleaseLockQuery,
      response: LockStateSchema,
    },
    async ({ actor, services, params, query }) =>
      services.content.locks.release(actor, params.collection, params.id, query.token ?? null),
  );

  // Link traversal: served, outside the documented contract.
  op(
    api,
    {
      method: 'get',
      path: `${entry}/references/{field}`,
      operationId: 'listContentReferences',
      summary: 'Next page of a reference field',
      tags,
      hidden: true,
      params: EntryPathParams.extend({ field: z.string().min(1).max(63) }),
      query: z.object({ cursor: z.string().optional() }),
      response: ReferencePageSchema,
    },
    async ({ actor, services, params, query }) =>
      services.content.referencePage(actor, params.collection, params.id, params.field, query.cursor),
  );
}

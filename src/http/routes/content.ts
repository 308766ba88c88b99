import {
  acquireEntryLock,
  compareContent,
  createContent,
  deleteContent,
  discardDraft,
  duplicateContent,
  getContent,
  getContentPreviewUrl,
  getContentTranslations,
  getEntryLock,
  listContent,
  listContentAuthors,
  listContentReferences,
  listTrashedContent,
  permanentDeleteContent,
  publishContent,
  releaseEntryLock,
  restoreContent,
  rotateContentPreviewSecret,
  scheduleContent,
  unpublishContent,
  unscheduleContent,
  updateContent,
} from '../../operations/content.js';
import type { AnyOperation } from '../../operations/operation.js';
import { type Api, route } from '../op.js';

/** Where a read may carry a preview token besides `?preview=` (docs/frontends.md). */
const PREVIEW_HEADER = 'x-cms-preview';

/** Routes of the spec's "Content" table (operations: operations/content.ts). */
export function contentRoutes(api: Api): void {
  const tags = ['Content'];
  const base = '/content/{collection}';
  const entry = `${base}/{id}`;

  route(api, {
    operation: rotateContentPreviewSecret,
    method: 'post',
    path: '/content/preview/rotate',
    summary: 'Rotate the preview secret: every preview link made so far stops working (Admins)',
    tags,
  });

  // Collection-level routes first: `trash` and `authors` must win over `{id}`.
  route(api, {
    operation: listTrashedContent,
    method: 'get',
    path: `${base}/trash`,
    summary: 'List entries in the trash',
    tags,
  });
  route(api, {
    operation: listContentAuthors,
    method: 'get',
    path: `${base}/authors`,
    summary: 'List the users who authored entries of the collection',
    tags,
  });
  route(api, {
    operation: listContent,
    method: 'get',
    path: base,
    errors: { 403: 'A `preview` token that is not valid (PREVIEW_TOKEN_INVALID)' },
    summary: 'List entries (cursor or numbered pages)',
    tags,
  });
  route(api, {
    operation: createContent,
    method: 'post',
    path: base,
    summary: 'Create an entry (a draft) or a translation of one',
    tags,
    status: 201,
  });
  route(api, {
    operation: getContent,
    method: 'get',
    path: entry,
    errors: { 403: 'A `preview` token that is not valid (PREVIEW_TOKEN_INVALID)' },
    summary: 'Get an entry by database ID or slug',
    description:
      'With a preview token (`?preview=` or the `X-CMS-Preview` header) the answer is the token’s entry with its pending draft, for anyone; a read of another entry with it is 403 PREVIEW_TOKEN_INVALID.',
    tags,
    request: (c, parts) => {
      const query = parts.query as { locale?: string; preview?: string };
      const preview = query.preview ?? (c.req.header(PREVIEW_HEADER) || undefined);
      if (preview === undefined) return parts;
      // A draft read through a link must never be kept by a cache, errors included (they say why):
      // set before the read, so the error answer carries it too.
      c.header('Cache-Control', 'no-store');
      return { ...parts, query: { ...query, preview } };
    },
  });
  route(api, {
    operation: updateContent,
    method: 'put',
    path: entry,
    summary: 'Partially update an entry (stages a draft on a published entry)',
    tags,
  });
  route(api, { operation: deleteContent, method: 'delete', path: entry, summary: 'Move an entry to the trash', tags });

  const guardedPost = (path: string, operation: AnyOperation, summary: string) =>
    route(api, {
      operation,
      method: 'post',
      path: `${entry}/${path}`,
      summary,
      tags,
      status: operation === duplicateContent ? 201 : 200,
    });
  guardedPost('publish', publishContent, 'Publish the entry (its pending draft becomes live)');
  guardedPost('unpublish', unpublishContent, 'Take the entry off the live site (content and date kept)');
  guardedPost('duplicate', duplicateContent, 'Duplicate the entry as a new draft');
  guardedPost('restore', restoreContent, 'Restore a trashed entry as a draft');
  guardedPost('discard-draft', discardDraft, 'Discard the pending draft (the live version stays)');

  route(api, {
    operation: scheduleContent,
    method: 'post',
    path: `${entry}/schedule`,
    summary: 'Schedule a future publication',
    tags,
  });
  route(api, {
    operation: unscheduleContent,
    method: 'delete',
    path: `${entry}/schedule`,
    summary: 'Cancel a scheduled publication',
    tags,
  });
  route(api, {
    operation: permanentDeleteContent,
    method: 'delete',
    path: `${entry}/permanent`,
    summary: 'Delete a trashed entry for good (cannot be undone)',
    tags,
  });
  route(api, {
    operation: compareContent,
    method: 'get',
    path: `${entry}/compare`,
    summary: 'Compare the live version with the pending draft',
    tags,
  });
  route(api, {
    operation: getContentTranslations,
    method: 'get',
    path: `${entry}/translations`,
    summary: 'Translation group and every locale variant of the entry',
    tags,
  });

  route(api, {
    operation: getContentPreviewUrl,
    method: 'get',
    path: `${entry}/preview-url`,
    summary: 'A signed, expiring preview link to the entry’s draft on the site’s front end',
    description:
      'Contributors and up (draft readers). The token reads this entry’s draft through getContent and nothing else; it lasts `previewTokenTtl` seconds and rotating the preview secret revokes every token.',
    tags,
  });

  // Edit locks
  route(api, { operation: getEntryLock, method: 'get', path: `${entry}/lock`, summary: 'Edit lock state', tags });
  route(api, {
    operation: acquireEntryLock,
    method: 'post',
    path: `${entry}/lock`,
    summary: 'Take or extend the 7-minute edit lease',
    tags,
  });
  route(api, {
    operation: releaseEntryLock,
    method: 'delete',
    path: `${entry}/lock`,
    summary: 'Release the edit lease (pass the token it was taken with)',
    tags,
  });

  // Link traversal: served, outside the documented contract.
  route(api, {
    operation: listContentReferences,
    method: 'get',
    path: `${entry}/references/{field}`,
    summary: 'Next page of a reference field',
    tags,
    hidden: true,
  });
}

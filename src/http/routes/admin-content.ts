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
} from '../../schemas/admin-content.js';
import { EntryPathParams, GuardedBody, SingleContent } from '../../schemas/content.js';
import { type Api, op } from '../op.js';

/**
 * What the admin reads around entries (content model with counts, dashboard,
 * reference lookup) and an entry's revisions. Contributor and up; the rules
 * live in the content service.
 */
export function adminContentRoutes(api: Api): void {
  const tags = ['Content'];
  op(
    api,
    {
      method: 'get',
      path: '/admin/content/model',
      operationId: 'getContentModel',
      summary: 'Collections with their fields and entry counts, block types and locales, for content writers',
      tags,
      query: ContentModelQuery,
      response: ContentModelResult,
    },
    async ({ actor, services, query }) => services.content.overview.model(actor, { locale: query.locale }),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/content/dashboard',
      operationId: 'getContentDashboard',
      summary: 'Recent edits, your drafts, drafts awaiting review and upcoming publications',
      tags,
      query: ContentModelQuery,
      response: DashboardResult,
    },
    async ({ actor, services, query }) => services.content.overview.dashboard(actor, { locale: query.locale }),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/content/{collection}/lookup',
      operationId: 'lookupContent',
      summary: 'Find entries to link by slug, title or ID',
      tags,
      params: LookupParams,
      query: LookupQuery,
      response: LookupResult,
    },
    async ({ actor, services, params, query }) =>
      services.content.overview.lookup(actor, params.collection, {
        q: query.q,
        locale: query.locale,
        limit: query.limit,
      }),
  );
  op(
    api,
    {
      method: 'get',
      path: '/content/{collection}/{id}/revisions',
      operationId: 'listContentRevisions',
      summary: 'Revisions of an entry, newest first',
      tags,
      params: EntryPathParams,
      query: RevisionListQuery,
      response: RevisionList,
    },
    async ({ actor, services, params, query }) =>
      services.content.revisions(actor, params.collection, params.id, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/content/{collection}/{id}/revisions/{revisionId}/restore',
      operationId: 'restoreContentRevision',
      summary: "Bring back a revision's values (staged as a draft when the entry is live)",
      tags,
      params: RevisionPathParams,
      body: GuardedBody,
      response: SingleContent,
    },
    async ({ actor, services, params, body }) =>
      services.content.restoreRevision(actor, params.collection, params.id, params.revisionId, body),
  );
}

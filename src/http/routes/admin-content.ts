import {
  getContentDashboard,
  getContentModel,
  listContentRevisions,
  lookupContent,
  restoreContentRevision,
} from '../../operations/content.js';
import { type Api, route } from '../op.js';

/**
 * What the admin reads around entries (content model with counts, dashboard,
 * reference lookup) and an entry's revisions. Contributor and up; the rules
 * live in the content service (operations: operations/content.ts).
 */
export function adminContentRoutes(api: Api): void {
  const tags = ['Content'];
  route(api, {
    operation: getContentModel,
    method: 'get',
    path: '/admin/content/model',
    summary: 'Collections with their fields and entry counts, block types and locales, for content writers',
    tags,
  });
  route(api, {
    operation: getContentDashboard,
    method: 'get',
    path: '/admin/content/dashboard',
    summary: 'Recent edits, your drafts, drafts awaiting review and upcoming publications',
    tags,
  });
  route(api, {
    operation: lookupContent,
    method: 'get',
    path: '/admin/content/{collection}/lookup',
    summary: 'Find entries to link by slug, title or ID',
    tags,
  });
  route(api, {
    operation: listContentRevisions,
    method: 'get',
    path: '/content/{collection}/{id}/revisions',
    summary: 'Revisions of an entry, newest first',
    tags,
  });
  route(api, {
    operation: restoreContentRevision,
    method: 'post',
    path: '/content/{collection}/{id}/revisions/{revisionId}/restore',
    summary: "Bring back a revision's values (staged as a draft when the entry is live)",
    tags,
  });
}

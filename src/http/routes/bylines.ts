import {
  createByline,
  deleteByline,
  getByline,
  listBylines,
  listBylineTranslations,
  updateByline,
} from '../../operations/bylines.js';
import { type Api, route } from '../op.js';

/**
 * Byline administration: served for the admin app, outside the documented contract (MCP tools are
 * the interface; operations: operations/bylines.ts).
 */
export function bylineRoutes(api: Api): void {
  const tags = ['Bylines'];
  const hidden = true;
  route(api, { operation: listBylines, method: 'get', path: '/bylines', summary: 'List bylines', tags, hidden });
  route(api, {
    operation: createByline,
    method: 'post',
    path: '/bylines',
    summary: 'Create a byline',
    tags,
    hidden,
    status: 201,
  });
  route(api, { operation: getByline, method: 'get', path: '/bylines/{id}', summary: 'Get a byline', tags, hidden });
  route(api, {
    operation: updateByline,
    method: 'put',
    path: '/bylines/{id}',
    summary: 'Update a byline',
    tags,
    hidden,
  });
  route(api, {
    operation: deleteByline,
    method: 'delete',
    path: '/bylines/{id}',
    summary: 'Delete a byline (removes its credits)',
    tags,
    hidden,
  });
  route(api, {
    operation: listBylineTranslations,
    method: 'get',
    path: '/bylines/{id}/translations',
    summary: 'Locale variants of a byline',
    tags,
    hidden,
  });
}

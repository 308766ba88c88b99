import {
  clearNotFoundLog,
  createRedirect,
  deleteRedirect,
  getNotFoundSummary,
  getRedirect,
  listNotFoundEntries,
  listRedirects,
  pruneNotFoundLog,
  testRedirect,
  updateRedirect,
} from '../../operations/redirects.js';
import { type Api, route } from '../op.js';

/**
 * Routes of the spec's "Redirects" table, plus "test a path" (operations:
 * operations/redirects.ts). Neither prune nor clear touches rules.
 */
export function redirectRoutes(api: Api): void {
  const tags = ['Redirects'];

  // The 404 log and the tester first: they must win over `/redirects/{id}`.
  route(api, {
    operation: getNotFoundSummary,
    method: 'get',
    path: '/redirects/404s/summary',
    summary: 'The 404 log grouped by path, most missed first',
    tags,
  });
  route(api, {
    operation: listNotFoundEntries,
    method: 'get',
    path: '/redirects/404s',
    summary: 'List 404 log entries (path, referrer, count, first and last seen)',
    tags,
  });
  route(api, {
    operation: pruneNotFoundLog,
    method: 'post',
    path: '/redirects/404s',
    summary: 'Remove the 404 log entries the body selects',
    tags,
  });
  route(api, {
    operation: clearNotFoundLog,
    method: 'delete',
    path: '/redirects/404s',
    summary: 'Clear the whole 404 log',
    tags,
  });
  route(api, {
    operation: testRedirect,
    method: 'get',
    path: '/redirects/test',
    summary: 'Where a path would be sent (hop by hop), without counting a hit',
    tags,
  });
  route(api, { operation: listRedirects, method: 'get', path: '/redirects', summary: 'List redirect rules', tags });
  route(api, {
    operation: createRedirect,
    method: 'post',
    path: '/redirects',
    summary: 'Create a redirect rule (loops are refused, chains reported)',
    tags,
    status: 201,
  });
  route(api, {
    operation: getRedirect,
    method: 'get',
    path: '/redirects/{id}',
    summary: 'Get a redirect rule',
    tags,
  });
  route(api, {
    operation: updateRedirect,
    method: 'put',
    path: '/redirects/{id}',
    summary: 'Update a redirect rule',
    tags,
  });
  route(api, {
    operation: deleteRedirect,
    method: 'delete',
    path: '/redirects/{id}',
    summary: 'Delete a redirect rule',
    tags,
  });
}

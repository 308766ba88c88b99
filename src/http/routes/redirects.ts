import {
  CreateRedirectBody,
  DeletedRedirect,
  ListRedirectsQuery,
  NotFoundList,
  NotFoundListQuery,
  NotFoundSummary,
  NotFoundSummaryQuery,
  PruneNotFoundBody,
  PruneResult,
  RedirectIdParams,
  RedirectList,
  RedirectSchema,
  RedirectTestResult,
  TestRedirectQuery,
  UpdateRedirectBody,
} from '../../schemas/redirects.js';
import { type Api, op } from '../op.js';

/** Routes of the spec's "Redirects" table, plus "test a path". Neither prune nor clear touches rules. */
export function redirectRoutes(api: Api): void {
  const tags = ['Redirects'];

  // The 404 log and the tester first: they must win over `/redirects/{id}`.
  op(
    api,
    {
      method: 'get',
      path: '/redirects/404s/summary',
      operationId: 'getNotFoundSummary',
      summary: 'The 404 log grouped by path, most missed first',
      tags,
      query: NotFoundSummaryQuery,
      response: NotFoundSummary,
    },
    async ({ actor, services, query }) => services.redirects.notFound.summary(actor, query),
  );
  op(
    api,
    {
      method: 'get',
      path: '/redirects/404s',
      operationId: 'listNotFoundEntries',
      summary: 'List 404 log entries (path, referrer, count, first and last seen)',
      tags,
      query: NotFoundListQuery,
      response: NotFoundList,
    },
    async ({ actor, services, query }) => services.redirects.notFound.list(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/redirects/404s',
      operationId: 'pruneNotFoundLog',
      summary: 'Remove the 404 log entries the body selects',
      tags,
      body: PruneNotFoundBody,
      response: PruneResult,
    },
    async ({ actor, services, body }) => services.redirects.notFound.prune(actor, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/redirects/404s',
      operationId: 'clearNotFoundLog',
      summary: 'Clear the whole 404 log',
      tags,
      response: PruneResult,
    },
    async ({ actor, services }) => services.redirects.notFound.clear(actor),
  );
  op(
    api,
    {
      method: 'get',
      path: '/redirects/test',
      operationId: 'testRedirect',
      summary: 'Where a path would be sent (hop by hop), without counting a hit',
      tags,
      query: TestRedirectQuery,
      response: RedirectTestResult,
    },
    async ({ actor, services, query }) => services.redirects.test(actor, query.path),
  );
  op(
    api,
    {
      method: 'get',
      path: '/redirects',
      operationId: 'listRedirects',
      summary: 'List redirect rules',
      tags,
      query: ListRedirectsQuery,
      response: RedirectList,
    },
    async ({ actor, services, query }) => services.redirects.list(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/redirects',
      operationId: 'createRedirect',
      summary: 'Create a redirect rule (loops are refused, chains reported)',
      tags,
      body: CreateRedirectBody,
      response: RedirectSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.redirects.create(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: '/redirects/{id}',
      operationId: 'getRedirect',
      summary: 'Get a redirect rule',
      tags,
      params: RedirectIdParams,
      response: RedirectSchema,
    },
    async ({ actor, services, params }) => services.redirects.get(actor, params.id),
  );
  op(
    api,
    {
      method: 'put',
      path: '/redirects/{id}',
      operationId: 'updateRedirect',
      summary: 'Update a redirect rule',
      tags,
      params: RedirectIdParams,
      body: UpdateRedirectBody,
      response: RedirectSchema,
    },
    async ({ actor, services, params, body }) => services.redirects.update(actor, params.id, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/redirects/{id}',
      operationId: 'deleteRedirect',
      summary: 'Delete a redirect rule',
      tags,
      params: RedirectIdParams,
      response: DeletedRedirect,
    },
    async ({ actor, services, params }) => services.redirects.remove(actor, params.id),
  );
}

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
} from '../schemas/redirects.js';
import { operation } from './operation.js';

/**
 * The redirect rules and the 404 log (spec: the "Redirects" table, plus "test a path"; REST
 * only, no MCP tool). Every one needs the `redirects:manage` permission, which a token reaches
 * through `content:write`. Neither prune nor clear touches rules.
 */
const MANAGES = 'content:write';

export const getNotFoundSummary = operation({
  id: 'getNotFoundSummary',
  query: NotFoundSummaryQuery,
  output: NotFoundSummary,
  writes: false,
  scope: MANAGES,
  run: ({ services, actor }, { query }) => services.redirects.notFound.summary(actor, query),
});

export const listNotFoundEntries = operation({
  id: 'listNotFoundEntries',
  query: NotFoundListQuery,
  output: NotFoundList,
  writes: false,
  scope: MANAGES,
  run: ({ services, actor }, { query }) => services.redirects.notFound.list(actor, query),
});

export const pruneNotFoundLog = operation({
  id: 'pruneNotFoundLog',
  body: PruneNotFoundBody,
  output: PruneResult,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { body }) => services.redirects.notFound.prune(actor, body),
});

export const clearNotFoundLog = operation({
  id: 'clearNotFoundLog',
  output: PruneResult,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }) => services.redirects.notFound.clear(actor),
});

export const testRedirect = operation({
  id: 'testRedirect',
  query: TestRedirectQuery,
  output: RedirectTestResult,
  writes: false,
  scope: MANAGES,
  run: ({ services, actor }, { query }) => services.redirects.test(actor, query.path),
});

export const listRedirects = operation({
  id: 'listRedirects',
  query: ListRedirectsQuery,
  output: RedirectList,
  writes: false,
  scope: MANAGES,
  run: ({ services, actor }, { query }) => services.redirects.list(actor, query),
});

export const createRedirect = operation({
  id: 'createRedirect',
  body: CreateRedirectBody,
  output: RedirectSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { body }) => services.redirects.create(actor, body),
});

export const getRedirect = operation({
  id: 'getRedirect',
  params: RedirectIdParams,
  output: RedirectSchema,
  writes: false,
  scope: MANAGES,
  run: ({ services, actor }, { params }) => services.redirects.get(actor, params.id),
});

export const updateRedirect = operation({
  id: 'updateRedirect',
  params: RedirectIdParams,
  body: UpdateRedirectBody,
  output: RedirectSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, body }) => services.redirects.update(actor, params.id, body),
});

export const deleteRedirect = operation({
  id: 'deleteRedirect',
  params: RedirectIdParams,
  output: DeletedRedirect,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params }) => services.redirects.remove(actor, params.id),
});

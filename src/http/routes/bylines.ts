import { z } from '@hono/zod-openapi';
import { BylineCreateBody, BylineListQuery, BylineUpdateBody } from '../../schemas/bylines.js';
import { BylineSchema } from '../../schemas/content.js';
import { type Api, op } from '../op.js';

/** Byline administration: served for the admin app, outside the documented contract (MCP tools are the interface). */
export function bylineRoutes(api: Api): void {
  const tags = ['Bylines'];
  const IdParams = z.object({ id: z.string().min(1) });
  op(
    api,
    {
      method: 'get',
      path: '/bylines',
      operationId: 'listBylines',
      summary: 'List bylines',
      tags,
      hidden: true,
      query: BylineListQuery,
      response: z.object({ items: z.array(BylineSchema), nextCursor: z.string().optional() }),
    },
    async ({ actor, services, query }) => services.content.bylines.list(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/bylines',
      operationId: 'createByline',
      summary: 'Create a byline',
      tags,
      hidden: true,
      body: BylineCreateBody,
      response: BylineSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.content.bylines.create(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: '/bylines/{id}',
      operationId: 'getByline',
      summary: 'Get a byline',
      tags,
      hidden: true,
      params: IdParams,
      response: BylineSchema,
    },
    async ({ actor, services, params }) => services.content.bylines.get(actor, params.id),
  );
  op(
    api,
    {
      method: 'put',
      path: '/bylines/{id}',
      operationId: 'updateByline',
      summary: 'Update a byline',
      tags,
      hidden: true,
      params: IdParams,
      body: BylineUpdateBody,
      response: BylineSchema,
    },
    async ({ actor, services, params, body }) => services.content.bylines.update(actor, params.id, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/bylines/{id}',
      operationId: 'deleteByline',
      summary: 'Delete a byline (removes its credits)',
      tags,
      hidden: true,
      params: IdParams,
      response: z.object({ deleted: z.literal(true), id: z.string() }),
    },
    async ({ actor, services, params }) => services.content.bylines.remove(actor, params.id),
  );
  op(
    api,
    {
      method: 'get',
      path: '/bylines/{id}/translations',
      operationId: 'listBylineTranslations',
      summary: 'Locale variants of a byline',
      tags,
      hidden: true,
      params: IdParams,
      response: z.object({ translationGroup: z.string(), items: z.array(BylineSchema) }),
    },
    async ({ actor, services, params }) => services.content.bylines.translations(actor, params.id),
  );
}

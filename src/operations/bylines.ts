import { z } from '@hono/zod-openapi';
import { BylineCreateBody, BylineListQuery, BylineUpdateBody } from '../schemas/bylines.js';
import { BylineSchema } from '../schemas/content.js';
import { operation } from './operation.js';

/**
 * The byline operations (MCP byline_*; the REST routes serve the admin app, outside the
 * documented contract). Reading needs content:read, changing content:write; the byline service
 * checks the role.
 */
const READS = 'content:read';
const WRITES = 'content:write';

const IdParams = z.object({ id: z.string().min(1) });

export const listBylines = operation({
  id: 'listBylines',
  query: BylineListQuery,
  output: z.object({ items: z.array(BylineSchema), nextCursor: z.string().optional() }),
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) => services.content.bylines.list(actor, query),
});

export const createByline = operation({
  id: 'createByline',
  body: BylineCreateBody,
  output: BylineSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { body }) => services.content.bylines.create(actor, body),
});

export const getByline = operation({
  id: 'getByline',
  params: IdParams,
  output: BylineSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.content.bylines.get(actor, params.id),
});

export const updateByline = operation({
  id: 'updateByline',
  params: IdParams,
  body: BylineUpdateBody,
  output: BylineSchema,
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params, body }) => services.content.bylines.update(actor, params.id, body),
});

export const deleteByline = operation({
  id: 'deleteByline',
  params: IdParams,
  output: z.object({ deleted: z.literal(true), id: z.string() }),
  writes: true,
  scope: WRITES,
  run: ({ services, actor }, { params }) => services.content.bylines.remove(actor, params.id),
});

export const listBylineTranslations = operation({
  id: 'listBylineTranslations',
  params: IdParams,
  output: z.object({ translationGroup: z.string(), items: z.array(BylineSchema) }),
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.content.bylines.translations(actor, params.id),
});

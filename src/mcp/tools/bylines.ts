import { z } from 'zod';
import { BylineCreateBody, BylineListQuery, BylineUpdateBody } from '../../schemas/bylines.js';
import { BylineSchema } from '../../schemas/content.js';
import { DESTRUCTIVE, READ, type ToolDef, tool, WRITE } from '../registry.js';

const Id = z.object({ id: z.string().min(1) });

export const bylineTools: ToolDef[] = [
  tool({
    name: 'byline_list',
    title: 'List Bylines',
    description: 'List bylines of a locale (search by display name).',
    scope: 'content:read',
    annotations: READ,
    input: BylineListQuery.extend({ limit: z.number().int().min(1).max(100).optional() }),
    output: z.object({ items: z.array(BylineSchema), nextCursor: z.string().optional() }),
    run: ({ services, actor }, a) => services.content.bylines.list(actor, a),
  }),
  tool({
    name: 'byline_get',
    title: 'Get Byline',
    description: 'Get one byline.',
    scope: 'content:read',
    annotations: READ,
    input: Id,
    output: BylineSchema,
    run: ({ services, actor }, a) => services.content.bylines.get(actor, a.id),
  }),
  tool({
    name: 'byline_create',
    title: 'Create Byline',
    description:
      'Create a reusable credit: a guest, or linked to a user (one per user per locale). With translationOf the translation keeps the source byline’s user unless userId is passed (null leaves it unlinked).',
    scope: 'content:write',
    annotations: WRITE,
    input: BylineCreateBody,
    output: BylineSchema,
    run: ({ services, actor }, a) => services.content.bylines.create(actor, a),
  }),
  tool({
    name: 'byline_update',
    title: 'Update Byline',
    description: 'Update a byline.',
    scope: 'content:write',
    annotations: WRITE,
    input: Id.extend(BylineUpdateBody.shape),
    output: BylineSchema,
    run: ({ services, actor }, { id, ...rest }) => services.content.bylines.update(actor, id, rest),
  }),
  tool({
    name: 'byline_delete',
    title: 'Delete Byline',
    description: 'Delete a byline: its credits are removed from content and it is cleared as primary byline.',
    scope: 'content:write',
    annotations: DESTRUCTIVE,
    input: Id,
    run: ({ services, actor }, a) => services.content.bylines.remove(actor, a.id),
  }),
  tool({
    name: 'byline_translations',
    title: 'List Byline Translations',
    description: 'Every locale variant of a byline, by byline ID or translation-group ID.',
    scope: 'content:read',
    annotations: READ,
    input: Id,
    output: z.object({ translationGroup: z.string(), items: z.array(BylineSchema) }),
    run: ({ services, actor }, a) => services.content.bylines.translations(actor, a.id),
  }),
];

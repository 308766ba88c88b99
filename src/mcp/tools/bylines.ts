import { z } from 'zod';
import {
  createByline,
  deleteByline,
  getByline,
  listBylines,
  listBylineTranslations,
  updateByline,
} from '../../operations/bylines.js';
import { BylineCreateBody, BylineListQuery, BylineUpdateBody } from '../../schemas/bylines.js';
import { DESTRUCTIVE, READ, type ToolDef, toolOf, WRITE } from '../registry.js';

const Id = z.object({ id: z.string().min(1) });

export const bylineTools: ToolDef[] = [
  toolOf(listBylines, {
    name: 'byline_list',
    title: 'List Bylines',
    description: 'List bylines of a locale (search by display name).',
    annotations: READ,
    input: BylineListQuery.extend({ limit: z.number().int().min(1).max(100).optional() }),
    toArgs: (a) => ({ query: a }),
  }),
  toolOf(getByline, {
    name: 'byline_get',
    title: 'Get Byline',
    description: 'Get one byline.',
    annotations: READ,
    input: Id,
    toArgs: (a) => ({ params: a }),
  }),
  toolOf(createByline, {
    name: 'byline_create',
    title: 'Create Byline',
    description:
      'Create a reusable credit: a guest, or linked to a user (one per user per locale). With translationOf the translation keeps the source byline’s user unless userId is passed (null leaves it unlinked).',
    annotations: WRITE,
    input: BylineCreateBody,
    toArgs: (a) => ({ body: a }),
  }),
  toolOf(updateByline, {
    name: 'byline_update',
    title: 'Update Byline',
    description: 'Update a byline.',
    annotations: WRITE,
    input: Id.extend(BylineUpdateBody.shape),
    toArgs: ({ id, ...body }) => ({ params: { id }, body }),
  }),
  // Listed without an output schema and answered without structuredContent, as it always has been.
  {
    ...toolOf(deleteByline, {
      name: 'byline_delete',
      title: 'Delete Byline',
      description: 'Delete a byline: its credits are removed from content and it is cleared as primary byline.',
      annotations: DESTRUCTIVE,
      input: Id,
      toArgs: (a) => ({ params: a }),
    }),
    output: undefined,
  },
  toolOf(listBylineTranslations, {
    name: 'byline_translations',
    title: 'List Byline Translations',
    description: 'Every locale variant of a byline, by byline ID or translation-group ID.',
    annotations: READ,
    input: Id,
    toArgs: (a) => ({ params: a }),
  }),
];

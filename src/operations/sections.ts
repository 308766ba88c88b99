import {
  SectionCreateBody,
  SectionDeleted,
  SectionList,
  SectionListQuery,
  SectionParams,
  SectionSchema,
  SectionUpdateBody,
} from '../schemas/sections.js';
import { operation } from './operation.js';

/**
 * The section operations (spec: section rows; REST only, no MCP tool). A token reads them
 * with `content:read` and changes them with `content:write` (it opens `sections:manage`).
 */
const READS = 'content:read';
const MANAGES = 'content:write';

export const listSections = operation({
  id: 'listSections',
  query: SectionListQuery,
  output: SectionList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) => services.sections.list(actor, query),
});

export const createSection = operation({
  id: 'createSection',
  body: SectionCreateBody,
  output: SectionSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { body }) => services.sections.create(actor, body),
});

export const getSection = operation({
  id: 'getSection',
  params: SectionParams,
  output: SectionSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.sections.get(actor, params.slug),
});

export const updateSection = operation({
  id: 'updateSection',
  params: SectionParams,
  body: SectionUpdateBody,
  output: SectionSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, body }) => services.sections.update(actor, params.slug, body),
});

export const deleteSection = operation({
  id: 'deleteSection',
  params: SectionParams,
  output: SectionDeleted,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params }) => services.sections.remove(actor, params.slug),
});

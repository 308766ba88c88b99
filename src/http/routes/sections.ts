import {
  SectionCreateBody,
  SectionDeleted,
  SectionList,
  SectionListQuery,
  SectionParams,
  SectionSchema,
  SectionUpdateBody,
} from '../../schemas/sections.js';
import { type Api, op } from '../op.js';

/** Routes of the spec's section rows. */
export function sectionRoutes(api: Api): void {
  const tags = ['Sections'];
  op(
    api,
    {
      method: 'get',
      path: '/sections',
      operationId: 'listSections',
      summary: 'List sections (without their content)',
      tags,
      query: SectionListQuery,
      response: SectionList,
    },
    async ({ actor, services, query }) => services.sections.list(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/sections',
      operationId: 'createSection',
      summary: 'Create a section',
      tags,
      body: SectionCreateBody,
      response: SectionSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.sections.create(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: '/sections/{slug}',
      operationId: 'getSection',
      summary: 'Get a section with its content',
      tags,
      params: SectionParams,
      response: SectionSchema,
    },
    async ({ actor, services, params }) => services.sections.get(actor, params.slug),
  );
  op(
    api,
    {
      method: 'put',
      path: '/sections/{slug}',
      operationId: 'updateSection',
      summary: 'Update a section',
      tags,
      params: SectionParams,
      body: SectionUpdateBody,
      response: SectionSchema,
    },
    async ({ actor, services, params, body }) => services.sections.update(actor, params.slug, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/sections/{slug}',
      operationId: 'deleteSection',
      summary: 'Delete a section',
      tags,
      params: SectionParams,
      response: SectionDeleted,
    },
    async ({ actor, services, params }) => services.sections.remove(actor, params.slug),
  );
}

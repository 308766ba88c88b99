import { createSection, deleteSection, getSection, listSections, updateSection } from '../../operations/sections.js';
import { type Api, route } from '../op.js';

/** Routes of the spec's section rows (operations: operations/sections.ts). */
export function sectionRoutes(api: Api): void {
  const tags = ['Sections'];
  route(api, {
    operation: listSections,
    method: 'get',
    path: '/sections',
    summary: 'List sections (without their content)',
    tags,
  });
  route(api, {
    operation: createSection,
    method: 'post',
    path: '/sections',
    summary: 'Create a section',
    tags,
    status: 201,
  });
  route(api, {
    operation: getSection,
    method: 'get',
    path: '/sections/{slug}',
    summary: 'Get a section with its content',
    tags,
  });
  route(api, { operation: updateSection, method: 'put', path: '/sections/{slug}', summary: 'Update a section', tags });
  route(api, {
    operation: deleteSection,
    method: 'delete',
    path: '/sections/{slug}',
    summary: 'Delete a section',
    tags,
  });
}

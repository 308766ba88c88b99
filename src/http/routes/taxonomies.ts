import {
  createTaxonomy,
  createTerm,
  deleteTaxonomy,
  deleteTerm,
  getContentTerms,
  getTaxonomy,
  getTerm,
  listTaxonomies,
  listTaxonomyTranslations,
  listTerms,
  listTermTranslations,
  reorderTerms,
  setContentTerms,
  updateTaxonomy,
  updateTerm,
} from '../../operations/taxonomies.js';
import { type Api, route } from '../op.js';

/**
 * Routes of the spec's "Taxonomies" table and the content-terms routes (operations:
 * operations/taxonomies.ts). Rules live in the taxonomy service.
 */
export function taxonomyRoutes(api: Api): void {
  const tags = ['Taxonomies'];
  const one = '/taxonomies/{name}';

  route(api, {
    operation: listTaxonomies,
    method: 'get',
    path: '/taxonomies',
    summary: 'List taxonomies (each in the requested locale, else the default, else the lowest locale code)',
    tags,
  });
  route(api, {
    operation: createTaxonomy,
    method: 'post',
    path: '/taxonomies',
    summary: 'Create a taxonomy definition (a locale variant when the name exists in another locale)',
    tags,
    status: 201,
  });
  route(api, {
    operation: getTaxonomy,
    method: 'get',
    path: one,
    summary: 'Get a taxonomy definition',
    description:
      'Without locale: the default-locale definition, falling back to the lowest locale code only when the default locale has none.',
    tags,
  });
  route(api, {
    operation: updateTaxonomy,
    method: 'put',
    path: one,
    summary: 'Update a taxonomy definition',
    description:
      'Without locale the definition with the lowest locale code changes; a locale without a definition is NOT_FOUND. hierarchical and collections change for every locale.',
    tags,
  });
  route(api, {
    operation: deleteTaxonomy,
    method: 'delete',
    path: one,
    summary: 'Delete a taxonomy: every locale, all its terms and their assignments (entries stay)',
    tags,
  });
  route(api, {
    operation: listTaxonomyTranslations,
    method: 'get',
    path: `${one}/translations`,
    summary: 'Every locale variant of a taxonomy (supplies the IDs translationOf takes)',
    tags,
  });
  route(api, {
    operation: reorderTerms,
    method: 'post',
    path: `${one}/reorder`,
    summary: 'Reorder part of one sibling group of terms',
    description:
      'The listed terms exchange the positions they hold; omitted siblings keep theirs; parents do not change. [A, B, C] reordered with [C, A] gives [C, B, A].',
    tags,
  });
  route(api, {
    operation: listTerms,
    method: 'get',
    path: `${one}/terms`,
    summary: 'List terms of a locale in manual order (all, top level, or children of a term)',
    tags,
  });
  route(api, {
    operation: createTerm,
    method: 'post',
    path: `${one}/terms`,
    summary: 'Create a term (or a translation of one)',
    tags,
    status: 201,
  });
  const term = `${one}/terms/{slug}`;
  route(api, {
    operation: getTerm,
    method: 'get',
    path: term,
    summary: 'Get a term by slug (in locale, default locale when omitted) or ID',
    tags,
  });
  route(api, {
    operation: updateTerm,
    method: 'put',
    path: term,
    summary: 'Update a term; parentId moves it (and its translations)',
    tags,
  });
  route(api, {
    operation: deleteTerm,
    method: 'delete',
    path: term,
    summary: "Delete one locale's term (refused while it has children in that locale)",
    tags,
  });

  // Spec rule 7: term translation listings are not part of the REST contract (MCP:
  // taxonomy_term_translations). Served for the admin app, left out of the document.
  route(api, {
    operation: listTermTranslations,
    method: 'get',
    path: '/term-translations/{id}',
    summary: 'Every locale variant of a term (by term ID or translation-group ID)',
    tags,
    hidden: true,
  });

  const entryTerms = '/content/{collection}/{id}/terms/{taxonomy}';
  route(api, {
    operation: getContentTerms,
    method: 'get',
    path: entryTerms,
    summary: "The entry's terms of a taxonomy, in the entry's locale",
    tags: ['Content'],
  });
  route(api, {
    operation: setContentTerms,
    method: 'post',
    path: entryTerms,
    summary: "Replace the entry's terms of a taxonomy (shared by every translation of the entry)",
    description:
      'Terms are assigned to the translation group: the caller must be allowed to edit every translation, and to publish each live one.',
    tags: ['Content'],
  });
}

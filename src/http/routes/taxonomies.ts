import { z } from '@hono/zod-openapi';
import {
  EntryTermsParams,
  EntryTermsSchema,
  LocaleQuery,
  ReorderTermsBody,
  SetEntryTermsBody,
  TaxonomyCreateBody,
  TaxonomyDeleted,
  TaxonomyList,
  TaxonomyListQuery,
  TaxonomyParams,
  TaxonomySchema,
  TaxonomyTranslations,
  TaxonomyUpdateBody,
  TermCreateBody,
  TermDeleted,
  TermList,
  TermListQuery,
  TermParams,
  TermSchema,
  TermTranslations,
  TermUpdateBody,
} from '../../schemas/taxonomies.js';
import { type Api, op } from '../op.js';

/** Routes of the spec's "Taxonomies" table and the content-terms routes. Rules live in the taxonomy service. */
export function taxonomyRoutes(api: Api): void {
  const tags = ['Taxonomies'];
  const one = '/taxonomies/{name}';

  op(
    api,
    {
      method: 'get',
      path: '/taxonomies',
      operationId: 'listTaxonomies',
      summary: 'List taxonomies (each in the requested locale, else the default, else the lowest locale code)',
      tags,
      query: TaxonomyListQuery,
      response: TaxonomyList,
    },
    async ({ actor, services, query }) => services.taxonomies.list(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/taxonomies',
      operationId: 'createTaxonomy',
      summary: 'Create a taxonomy definition (a locale variant when the name exists in another locale)',
      tags,
      body: TaxonomyCreateBody,
      response: TaxonomySchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.taxonomies.create(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: one,
      operationId: 'getTaxonomy',
      summary: 'Get a taxonomy definition',
      description:
        'Without locale: the default-locale definition, falling back to the lowest locale code only when the default locale has none.',
      tags,
      params: TaxonomyParams,
      query: LocaleQuery,
      response: TaxonomySchema,
    },
    async ({ actor, services, params, query }) => services.taxonomies.get(actor, params.name, query.locale),
  );
  op(
    api,
    {
      method: 'put',
      path: one,
      operationId: 'updateTaxonomy',
      summary: 'Update a taxonomy definition',
      description:
        'Without locale the definition with the lowest locale code changes; a locale without a definition is NOT_FOUND. hierarchical and collections change for every locale.',
      tags,
      params: TaxonomyParams,
      query: LocaleQuery,
      body: TaxonomyUpdateBody,
      response: TaxonomySchema,
    },
    async ({ actor, services, params, query, body }) =>
      services.taxonomies.update(actor, params.name, query.locale, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: one,
      operationId: 'deleteTaxonomy',
      summary: 'Delete a taxonomy: every locale, all its terms and their assignments (entries stay)',
      tags,
      params: TaxonomyParams,
      response: TaxonomyDeleted,
    },
    async ({ actor, services, params }) => services.taxonomies.remove(actor, params.name),
  );
  op(
    api,
    {
      method: 'get',
      path: `${one}/translations`,
      operationId: 'listTaxonomyTranslations',
      summary: 'Every locale variant of a taxonomy (supplies the IDs translationOf takes)',
      tags,
      params: TaxonomyParams,
      response: TaxonomyTranslations,
    },
    async ({ actor, services, params }) => services.taxonomies.translations(actor, params.name),
  );
  op(
    api,
    {
      method: 'post',
      path: `${one}/reorder`,
      operationId: 'reorderTerms',
      summary: 'Reorder part of one sibling group of terms',
      description:
        'The listed terms exchange the positions they hold; omitted siblings keep theirs; parents do not change. [A, B, C] reordered with [C, A] gives [C, B, A].',
      tags,
      params: TaxonomyParams,
      body: ReorderTermsBody,
      response: TermList,
    },
    async ({ actor, services, params, body }) => services.taxonomies.terms.reorder(actor, params.name, body.ids),
  );
  op(
    api,
    {
      method: 'get',
      path: `${one}/terms`,
      operationId: 'listTerms',
      summary: 'List terms of a locale in manual order (all, top level, or children of a term)',
      tags,
      params: TaxonomyParams,
      query: TermListQuery,
      response: TermList,
    },
    async ({ actor, services, params, query }) => services.taxonomies.terms.list(actor, params.name, query),
  );
  op(
    api,
    {
      method: 'post',
      path: `${one}/terms`,
      operationId: 'createTerm',
      summary: 'Create a term (or a translation of one)',
      tags,
      params: TaxonomyParams,
      body: TermCreateBody,
      response: TermSchema,
      status: 201,
    },
    async ({ actor, services, params, body }) => services.taxonomies.terms.create(actor, params.name, body),
  );
  const term = `${one}/terms/{slug}`;
  op(
    api,
    {
      method: 'get',
      path: term,
      operationId: 'getTerm',
      summary: 'Get a term by slug (in locale, default locale when omitted) or ID',
      tags,
      params: TermParams,
      query: LocaleQuery,
      response: TermSchema,
    },
    async ({ actor, services, params, query }) =>
      services.taxonomies.terms.get(actor, params.name, params.slug, query.locale),
  );
  op(
    api,
    {
      method: 'put',
      path: term,
      operationId: 'updateTerm',
      summary: 'Update a term; parentId moves it (and its translations)',
      tags,
      params: TermParams,
      query: LocaleQuery,
      body: TermUpdateBody,
      response: TermSchema,
    },
    async ({ actor, services, params, query, body }) =>
      services.taxonomies.terms.update(actor, params.name, params.slug, query.locale, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: term,
      operationId: 'deleteTerm',
      summary: "Delete one locale's term (refused while it has children in that locale)",
      tags,
      params: TermParams,
      query: LocaleQuery,
      response: TermDeleted,
    },
    async ({ actor, services, params, query }) =>
      services.taxonomies.terms.remove(actor, params.name, params.slug, query.locale),
  );

  // Spec rule 7: term translation listings are not part of the REST contract (MCP:
  // taxonomy_term_translations). Served for the admin app, left out of the document.
  op(
    api,
    {
      method: 'get',
      path: '/term-translations/{id}',
      operationId: 'listTermTranslations',
      summary: 'Every locale variant of a term (by term ID or translation-group ID)',
      tags,
      hidden: true,
      params: z.object({ id: z.string().min(1).max(64) }),
      response: TermTranslations,
    },
    async ({ actor, services, params }) => services.taxonomies.terms.translations(actor, params.id),
  );

  const entryTerms = '/content/{collection}/{id}/terms/{taxonomy}';
  op(
    api,
    {
      method: 'get',
      path: entryTerms,
      operationId: 'getContentTerms',
      summary: "The entry's terms of a taxonomy, in the entry's locale",
      tags: ['Content'],
      params: EntryTermsParams,
      query: LocaleQuery,
      response: EntryTermsSchema,
    },
    async ({ actor, services, params, query }) =>
      services.taxonomies.entryTerms.get(actor, params.collection, params.id, params.taxonomy, query),
  );
  op(
    api,
    {
      method: 'post',
      path: entryTerms,
      operationId: 'setContentTerms',
      summary: "Replace the entry's terms of a taxonomy (shared by every translation of the entry)",
      description:
        'Terms are assigned to the translation group: the caller must be allowed to edit every translation, and to publish each live one.',
      tags: ['Content'],
      params: EntryTermsParams,
      query: LocaleQuery,
      body: SetEntryTermsBody,
      response: EntryTermsSchema,
    },
    async ({ actor, services, params, query, body }) =>
      services.taxonomies.entryTerms.set(actor, params.collection, params.id, params.taxonomy, body.terms, query),
  );
}

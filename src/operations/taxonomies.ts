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
} from '../schemas/taxonomies.js';
import { operation } from './operation.js';

/**
 * The taxonomy operations (spec: the "Taxonomies" table and the content-terms rows; MCP
 * taxonomy_*). `locale` picks a definition's or a term's locale; the rules live in the
 * taxonomy service.
 */
const READS = 'content:read';
const MANAGES = 'taxonomies:manage';

export const listTaxonomies = operation({
  id: 'listTaxonomies',
  query: TaxonomyListQuery,
  output: TaxonomyList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) => services.taxonomies.list(actor, query),
});

export const createTaxonomy = operation({
  id: 'createTaxonomy',
  body: TaxonomyCreateBody,
  output: TaxonomySchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { body }) => services.taxonomies.create(actor, body),
});

export const getTaxonomy = operation({
  id: 'getTaxonomy',
  params: TaxonomyParams,
  query: LocaleQuery,
  output: TaxonomySchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) => services.taxonomies.get(actor, params.name, query.locale),
});

export const updateTaxonomy = operation({
  id: 'updateTaxonomy',
  params: TaxonomyParams,
  query: LocaleQuery,
  body: TaxonomyUpdateBody,
  output: TaxonomySchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query, body }) =>
    services.taxonomies.update(actor, params.name, query.locale, body),
});

export const deleteTaxonomy = operation({
  id: 'deleteTaxonomy',
  params: TaxonomyParams,
  output: TaxonomyDeleted,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params }) => services.taxonomies.remove(actor, params.name),
});

export const listTaxonomyTranslations = operation({
  id: 'listTaxonomyTranslations',
  params: TaxonomyParams,
  output: TaxonomyTranslations,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.taxonomies.translations(actor, params.name),
});

export const reorderTerms = operation({
  id: 'reorderTerms',
  params: TaxonomyParams,
  body: ReorderTermsBody,
  output: TermList,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, body }) => services.taxonomies.terms.reorder(actor, params.name, body.ids),
});

export const listTerms = operation({
  id: 'listTerms',
  params: TaxonomyParams,
  query: TermListQuery,
  output: TermList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) => services.taxonomies.terms.list(actor, params.name, query),
});

export const createTerm = operation({
  id: 'createTerm',
  params: TaxonomyParams,
  body: TermCreateBody,
  output: TermSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, body }) => services.taxonomies.terms.create(actor, params.name, body),
});

export const getTerm = operation({
  id: 'getTerm',
  params: TermParams,
  query: LocaleQuery,
  output: TermSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) =>
    services.taxonomies.terms.get(actor, params.name, params.slug, query.locale),
});

export const updateTerm = operation({
  id: 'updateTerm',
  params: TermParams,
  query: LocaleQuery,
  body: TermUpdateBody,
  output: TermSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query, body }) =>
    services.taxonomies.terms.update(actor, params.name, params.slug, query.locale, body),
});

export const deleteTerm = operation({
  id: 'deleteTerm',
  params: TermParams,
  query: LocaleQuery,
  output: TermDeleted,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, query }) =>
    services.taxonomies.terms.remove(actor, params.name, params.slug, query.locale),
});

/** Every locale variant of a term, by term ID or translation-group ID (not part of the REST contract: spec rule 7). */
export const listTermTranslations = operation({
  id: 'listTermTranslations',
  params: z.object({ id: z.string().min(1).max(64) }),
  output: TermTranslations,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.taxonomies.terms.translations(actor, params.id),
});

/** An entry's terms of one taxonomy, in the entry's locale. */
export const getContentTerms = operation({
  id: 'getContentTerms',
  params: EntryTermsParams,
  query: LocaleQuery,
  output: EntryTermsSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params, query }) =>
    services.taxonomies.entryTerms.get(actor, params.collection, params.id, params.taxonomy, query),
});

/** Replace an entry's terms of one taxonomy (the assignment is the translation group's). */
export const setContentTerms = operation({
  id: 'setContentTerms',
  params: EntryTermsParams,
  query: LocaleQuery,
  body: SetEntryTermsBody,
  output: EntryTermsSchema,
  writes: true,
  scope: 'content:write',
  run: ({ services, actor }, { params, query, body }) =>
    services.taxonomies.entryTerms.set(actor, params.collection, params.id, params.taxonomy, body.terms, query),
});

import { z } from 'zod';
import {
  createTaxonomy,
  createTerm,
  deleteTaxonomy,
  deleteTerm,
  getTaxonomy,
  listTaxonomies,
  listTerms,
  listTermTranslations,
  updateTaxonomy,
  updateTerm,
} from '../../operations/taxonomies.js';
import {
  TaxonomyCreateBody,
  TaxonomyUpdateBody,
  TermCreateBody,
  TermListQuery,
  TermUpdateBody,
} from '../../schemas/taxonomies.js';
import { MachineName } from '../../schemas/text.js';
import { DESTRUCTIVE, READ, type ToolDef, toolOf, WRITE } from '../registry.js';

const Locale = z.string().max(35).optional().describe('A configured locale (default locale when omitted)');
const Cursor = { cursor: z.string().max(2000).optional(), limit: z.number().int().min(1).max(100).optional() };
const Name = z.object({ name: MachineName.describe('Taxonomy name') });
const Term = z.object({
  taxonomy: MachineName.describe('Taxonomy name'),
  slug: z.string().min(1).max(200).describe('Term slug (in locale) or term ID'),
  locale: Locale,
});
const termOf = (a: z.output<typeof Term>) => ({
  params: { name: a.taxonomy, slug: a.slug },
  query: { locale: a.locale },
});

export const taxonomyTools: ToolDef[] = [
  toolOf(listTaxonomies, {
    name: 'taxonomy_list',
    title: 'List Taxonomies',
    description:
      'List taxonomies, each in the requested locale (else the default locale, else the lowest locale code), with hierarchical and collections.',
    annotations: READ,
    input: z.object({ locale: Locale, ...Cursor }),
    toArgs: (a) => ({ query: a }),
  }),
  toolOf(getTaxonomy, {
    name: 'taxonomy_get',
    title: 'Get Taxonomy Definition',
    description:
      'One locale’s definition of a taxonomy. Without locale: the default-locale definition, else the lowest locale code’s.',
    annotations: READ,
    input: Name.extend({ locale: Locale }),
    toArgs: ({ name, locale }) => ({ params: { name }, query: { locale } }),
  }),
  toolOf(createTaxonomy, {
    name: 'taxonomy_create',
    title: 'Create Taxonomy Definition',
    description:
      'Create a taxonomy definition. A name that exists in another locale gets a locale variant (with or without translationOf); it takes the taxonomy’s hierarchical and collections, and differing values are a VALIDATION_ERROR.',
    annotations: WRITE,
    input: TaxonomyCreateBody,
    toArgs: (a) => ({ body: a }),
  }),
  toolOf(updateTaxonomy, {
    name: 'taxonomy_update',
    title: 'Update Taxonomy Definition',
    description:
      'Update labels of one locale’s definition (without locale: the lowest locale code’s; a locale without a definition is NOT_FOUND). hierarchical and collections change for every locale.',
    annotations: WRITE,
    input: Name.extend({ locale: Locale }).extend(TaxonomyUpdateBody.shape),
    toArgs: ({ name, locale, ...body }) => ({ params: { name }, query: { locale }, body }),
  }),
  toolOf(deleteTaxonomy, {
    name: 'taxonomy_delete',
    title: 'Delete Taxonomy Definition',
    description:
      'Delete a taxonomy: every locale’s definition, all its terms and all assignments of its terms to content. Entries are not deleted.',
    annotations: DESTRUCTIVE,
    input: Name,
    toArgs: ({ name }) => ({ params: { name } }),
  }),
  toolOf(listTerms, {
    name: 'taxonomy_list_terms',
    title: 'List Taxonomy Terms',
    description:
      'List terms of a locale in manual order: all of them, the top level (parent: "root") or the children of a term; each with its parent, count and child count.',
    annotations: READ,
    input: z.object({ taxonomy: MachineName }).extend(TermListQuery.shape).extend(Cursor),
    toArgs: ({ taxonomy, ...query }) => ({ params: { name: taxonomy }, query }),
  }),
  toolOf(createTerm, {
    name: 'taxonomy_create_term',
    title: 'Create Taxonomy Term',
    description:
      'Create a term. parentId (hierarchical taxonomies only: same taxonomy, no cycle) places it below another term; translationOf adds a locale to a term’s translation group (sharing its parent and order).',
    annotations: WRITE,
    input: z.object({ taxonomy: MachineName }).extend(TermCreateBody.shape),
    toArgs: ({ taxonomy, ...body }) => ({ params: { name: taxonomy }, body }),
  }),
  toolOf(updateTerm, {
    name: 'taxonomy_update_term',
    title: 'Update Taxonomy Term',
    description:
      'Update a term’s label, slug (newSlug) or description; parentId moves it (in every locale) — VALIDATION_ERROR in a flat taxonomy or when it would create a cycle.',
    annotations: WRITE,
    input: Term.extend(TermUpdateBody.omit({ slug: true }).shape).extend({
      newSlug: z.string().min(1).max(200).optional().describe('A new slug for the term'),
    }),
    toArgs: ({ taxonomy, slug, locale, newSlug, ...body }) => ({
      params: { name: taxonomy, slug },
      query: { locale },
      body: { ...body, slug: newSlug },
    }),
  }),
  toolOf(deleteTerm, {
    name: 'taxonomy_delete_term',
    title: 'Delete Taxonomy Term',
    description:
      'Delete one locale’s term. A term with children cannot be deleted until they are moved or removed; deleting the last locale of a term removes its assignments.',
    annotations: DESTRUCTIVE,
    input: Term,
    toArgs: termOf,
  }),
  toolOf(listTermTranslations, {
    name: 'taxonomy_term_translations',
    title: 'List Term Translations',
    description: 'Every locale variant of a term, by term ID or translation-group ID.',
    annotations: READ,
    input: z.object({ id: z.string().min(1).max(64).describe('Term ID or translation-group ID') }),
    toArgs: (a) => ({ params: a }),
  }),
];

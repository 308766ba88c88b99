import { z } from 'zod';
import {
  TaxonomyCreateBody,
  TaxonomyDeleted,
  TaxonomyList,
  TaxonomySchema,
  TaxonomyUpdateBody,
  TermCreateBody,
  TermDeleted,
  TermList,
  TermListQuery,
  TermSchema,
  TermTranslations,
  TermUpdateBody,
} from '../../schemas/taxonomies.js';
import { MachineName } from '../../schemas/text.js';
import { DESTRUCTIVE, READ, type ToolDef, tool, WRITE } from '../registry.js';

const Locale = z.string().max(35).optional().describe('A configured locale (default locale when omitted)');
const Cursor = { cursor: z.string().max(2000).optional(), limit: z.number().int().min(1).max(100).optional() };
const Name = z.object({ name: MachineName.describe('Taxonomy name') });
const Term = z.object({
  taxonomy: MachineName.describe('Taxonomy name'),
  slug: z.string().min(1).max(200).describe('Term slug (in locale) or term ID'),
  locale: Locale,
});

export const taxonomyTools: ToolDef[] = [
  tool({
    name: 'taxonomy_list',
    title: 'List Taxonomies',
    description:
      'List taxonomies, each in the requested locale (else the default locale, else the lowest locale code), with hierarchical and collections.',
    scope: 'content:read',
    annotations: READ,
    input: z.object({ locale: Locale, ...Cursor }),
    output: TaxonomyList,
    run: ({ services, actor }, a) => services.taxonomies.list(actor, a),
  }),
  tool({
    name: 'taxonomy_get',
    title: 'Get Taxonomy Definition',
    description:
      'One locale’s definition of a taxonomy. Without locale: the default-locale definition, else the lowest locale code’s.',
    scope: 'content:read',
    annotations: READ,
    input: Name.extend({ locale: Locale }),
    output: TaxonomySchema,
    run: ({ services, actor }, a) => services.taxonomies.get(actor, a.name, a.locale),
  }),
  tool({
    name: 'taxonomy_create',
    title: 'Create Taxonomy Definition',
    description:
      'Create a taxonomy definition. A name that exists in another locale gets a locale variant (with or without translationOf); it takes the taxonomy’s hierarchical and collections, and differing values are a VALIDATION_ERROR.',
    scope: 'taxonomies:manage',
    annotations: WRITE,
    input: TaxonomyCreateBody,
    output: TaxonomySchema,
    run: ({ services, actor }, a) => services.taxonomies.create(actor, a),
  }),
  tool({
    name: 'taxonomy_update',
    title: 'Update Taxonomy Definition',
    description:
      'Update labels of one locale’s definition (without locale: the lowest locale code’s; a locale without a definition is NOT_FOUND). hierarchical and collections change for every locale.',
    scope: 'taxonomies:manage',
    annotations: WRITE,
    input: Name.extend({ locale: Locale }).extend(TaxonomyUpdateBody.shape),
    output: TaxonomySchema,
    run: ({ services, actor }, { name, locale, ...body }) => services.taxonomies.update(actor, name, locale, body),
  }),
  tool({
    name: 'taxonomy_delete',
    title: 'Delete Taxonomy Definition',
    description:
      'Delete a taxonomy: every locale’s definition, all its terms and all assignments of its terms to content. Entries are not deleted.',
    scope: 'taxonomies:manage',
    annotations: DESTRUCTIVE,
    input: Name,
    output: TaxonomyDeleted,
    run: ({ services, actor }, a) => services.taxonomies.remove(actor, a.name),
  }),
  tool({
    name: 'taxonomy_list_terms',
    title: 'List Taxonomy Terms',
    description:
      'List terms of a locale in manual order: all of them, the top level (parent: "root") or the children of a term; each with its parent, count and child count.',
    scope: 'content:read',
    annotations: READ,
    input: z.object({ taxonomy: MachineName }).extend(TermListQuery.shape).extend(Cursor),
    output: TermList,
    run: ({ services, actor }, { taxonomy, ...opts }) => services.taxonomies.terms.list(actor, taxonomy, opts),
  }),
  tool({
    name: 'taxonomy_create_term',
    title: 'Create Taxonomy Term',
    description:
      'Create a term. parentId (hierarchical taxonomies only: same taxonomy, no cycle) places it below another term; translationOf adds a locale to a term’s translation group (sharing its parent and order).',
    scope: 'taxonomies:manage',
    annotations: WRITE,
    input: z.object({ taxonomy: MachineName }).extend(TermCreateBody.shape),
    output: TermSchema,
    run: ({ services, actor }, { taxonomy, ...body }) => services.taxonomies.terms.create(actor, taxonomy, body),
  }),
  tool({
    name: 'taxonomy_update_term',
    title: 'Update Taxonomy Term',
    description:
      'Update a term’s label, slug (newSlug) or description; parentId moves it (in every locale) — VALIDATION_ERROR in a flat taxonomy or when it would create a cycle.',
    scope: 'taxonomies:manage',
    annotations: WRITE,
    input: Term.extend(TermUpdateBody.omit({ slug: true }).shape).extend({
      newSlug: z.string().min(1).max(200).optional().describe('A new slug for the term'),
    }),
    output: TermSchema,
    run: ({ services, actor }, { taxonomy, slug, locale, newSlug, ...body }) =>
      services.taxonomies.terms.update(actor, taxonomy, slug, locale, { ...body, slug: newSlug }),
  }),
  tool({
    name: 'taxonomy_delete_term',
    title: 'Delete Taxonomy Term',
    description:
      'Delete one locale’s term. A term with children cannot be deleted until they are moved or removed; deleting the last locale of a term removes its assignments.',
    scope: 'taxonomies:manage',
    annotations: DESTRUCTIVE,
    input: Term,
    output: TermDeleted,
    run: ({ services, actor }, a) => services.taxonomies.terms.remove(actor, a.taxonomy, a.slug, a.locale),
  }),
  tool({
    name: 'taxonomy_term_translations',
    title: 'List Term Translations',
    description: 'Every locale variant of a term, by term ID or translation-group ID.',
    scope: 'content:read',
    annotations: READ,
    input: z.object({ id: z.string().min(1).max(64).describe('Term ID or translation-group ID') }),
    output: TermTranslations,
    run: ({ services, actor }, a) => services.taxonomies.terms.translations(actor, a.id),
  }),
];

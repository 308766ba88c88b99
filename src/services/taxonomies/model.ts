import type { TaxonomiesTable, TaxonomyDefsTable, TermsTable } from '../../db/tables-structure.js';

/** One locale's definition of a taxonomy, with the taxonomy-wide values. */
export interface TaxonomyView {
  /** ID of this locale's definition (what `translationOf` takes). */
  id: string;
  name: string;
  label: string;
  labelSingular: string;
  hierarchical: boolean;
  collections: string[];
  locale: string;
  /** Configured locales that have a definition. */
  locales: string[];
  createdAt: string;
  updatedAt: string;
}

export interface TermView {
  id: string;
  taxonomy: string;
  locale: string;
  translationGroup: string;
  slug: string;
  label: string;
  description: string | null;
  /** The parent term in the same locale, or null at the top level. */
  parentId: string | null;
  /** Translation group of the parent (shared by every locale). */
  parentGroup: string | null;
  /** Manual order among siblings, shared by every locale of the translation group. */
  position: number;
  /** Published entries of this locale carrying the term. */
  count: number;
  /** Terms of this locale directly below this one. */
  childCount: number;
  createdAt: string;
  updatedAt: string;
}

export function collectionsOf(row: Pick<TaxonomiesTable, 'collections'>): string[] {
  const parsed: unknown = JSON.parse(row.collections);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}

export function taxonomyView(tax: TaxonomiesTable, def: TaxonomyDefsTable, locales: string[]): TaxonomyView {
  return {
    id: def.id,
    name: tax.name,
    label: def.label,
    labelSingular: def.label_singular,
    hierarchical: tax.hierarchical === 1,
    collections: collectionsOf(tax),
    locale: def.locale,
    locales,
    createdAt: def.created_at,
    // ISO instants sort as text: the later of the definition's and the taxonomy-wide change.
    updatedAt: [def.updated_at, tax.updated_at].sort()[1],
  };
}

export interface TermExtras {
  parentId: string | null;
  count: number;
  childCount: number;
}

export function termView(row: TermsTable, extras: TermExtras): TermView {
  return {
    id: row.id,
    taxonomy: row.taxonomy,
    locale: row.locale,
    translationGroup: row.translation_group,
    slug: row.slug,
    label: row.label,
    description: row.description,
    parentId: extras.parentId,
    parentGroup: row.parent_group,
    position: Number(row.position),
    count: extras.count,
    childCount: extras.childCount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

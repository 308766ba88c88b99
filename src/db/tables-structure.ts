/**
 * Row types of the site-structure tables: taxonomies and terms, content-term
 * assignments with their maintained counts, menus, sections, widget areas.
 */

/** Taxonomy-wide values, shared by every locale's definition. */
export interface TaxonomiesTable {
  name: string;
  hierarchical: number;
  /** JSON array of collection slugs that accept the taxonomy's terms. */
  collections: string;
  created_at: string;
  updated_at: string;
}

/** One locale's definition (labels) of a taxonomy. */
export interface TaxonomyDefsTable {
  id: string;
  taxonomy: string;
  locale: string;
  label: string;
  label_singular: string;
  created_at: string;
  updated_at: string;
}

/**
 * One locale's term. `parent_group` and `position` belong to the translation
 * group and are written to every row of the group together.
 */
export interface TermsTable {
  id: string;
  taxonomy: string;
  locale: string;
  translation_group: string;
  slug: string;
  label: string;
  description: string | null;
  parent_group: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

/** A term (by translation group) assigned to an entry translation group: spans every locale of both. */
export interface ContentTermsTable {
  collection_id: string;
  entry_group: string;
  term_group: string;
  taxonomy: string;
  position: number;
  created_at: string;
}

/** Which term groups each counted (published, not trashed) entry currently adds to the counts. */
export interface TermCountedTable {
  collection_id: string;
  entry_id: string;
  term_group: string;
  locale: string;
}

/** Maintained count of counted entries per term group, locale and collection. */
export interface TermCountsTable {
  term_group: string;
  locale: string;
  collection_id: string;
  count: number;
}

export interface MenusTable {
  id: string;
  name: string;
  locale: string;
  translation_group: string;
  label: string;
  created_at: string;
  updated_at: string;
}

export interface MenuItemsTable {
  id: string;
  menu_id: string;
  parent_id: string | null;
  position: number;
  /** `content`, `term` or `url`. */
  kind: string;
  label: string | null;
  url: string | null;
  /** content items: the collection's ID. */
  collection_id: string | null;
  /** term items: the taxonomy name. */
  taxonomy: string | null;
  /** content and term items: the target's translation group. */
  target_group: string | null;
  open_in_new_tab: number;
  created_at: string;
  updated_at: string;
}

export interface SectionsTable {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  /** JSON: Portable Text blocks. */
  content: string;
  created_at: string;
  updated_at: string;
}

export interface WidgetAreasTable {
  id: string;
  name: string;
  label: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface WidgetsTable {
  id: string;
  area_id: string;
  position: number;
  type: string;
  title: string | null;
  /** JSON: the type's settings. */
  settings: string;
  created_at: string;
  updated_at: string;
}

export interface StructureTables {
  _cms_taxonomies: TaxonomiesTable;
  _cms_taxonomy_defs: TaxonomyDefsTable;
  _cms_terms: TermsTable;
  _cms_content_terms: ContentTermsTable;
  _cms_term_counted: TermCountedTable;
  _cms_term_counts: TermCountsTable;
  _cms_menus: MenusTable;
  _cms_menu_items: MenuItemsTable;
  _cms_sections: SectionsTable;
  _cms_widget_areas: WidgetAreasTable;
  _cms_widgets: WidgetsTable;
}

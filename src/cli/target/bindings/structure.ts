import { type Bindings, bind } from '../operations.js';
import type { Target } from '../types.js';

/** The site structure methods that are catalogue operations (settings, taxonomies, menus). */
export const STRUCTURE_OPERATIONS = {
  settings: bind('getSettings', () => ({})),
  updateSettings: bind('updateSettings', (body: object) => ({ body })),
  taxonomy: bind('getTaxonomy', (name: string, locale?: string) => ({ params: { name }, query: { locale } })),
  createTaxonomy: bind('createTaxonomy', (body: object) => ({ body })),
  term: bind('getTerm', (name: string, slug: string, locale?: string) => ({
    params: { name, slug },
    query: { locale },
  })),
  createTerm: bind('createTerm', (name: string, body: object) => ({ params: { name }, body })),
  entryTerms: bind('getContentTerms', (collection: string, id: string, taxonomy: string) => ({
    params: { collection, id, taxonomy },
  })),
  setEntryTerms: bind('setContentTerms', (collection: string, id: string, taxonomy: string, terms: string[]) => ({
    params: { collection, id, taxonomy },
    body: { terms },
  })),
  menu: bind('getMenu', (name: string, locale?: string) => ({ params: { name }, query: { locale } })),
  createMenu: bind('createMenu', (body: object) => ({ body })),
  createMenuItem: bind('createMenuItem', (name: string, locale: string | undefined, body: object) => ({
    params: { name },
    query: { locale },
    body,
  })),
} satisfies Bindings<Target['structure']>;

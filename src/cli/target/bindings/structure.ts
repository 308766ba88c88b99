import { type Bindings, bind } from '../operations.js';
import type { Target } from '../types.js';

/** The site structure methods that are catalogue operations (settings, taxonomies, menus). */
export const STRUCTURE_OPERATIONS = {
  menu: bind('getMenu', (name: string, locale?: string) => ({ params: { name }, query: { locale } })),
  createMenu: bind('createMenu', (body: object) => ({ body })),
  createMenuItem: bind('createMenuItem', (name: string, locale: string | undefined, body: object) => ({
    params: { name },
    query: { locale },
    body,
  })),
} satisfies Bindings<Target['structure']>;

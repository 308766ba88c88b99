/**
 * Shapes of the site-structure operations (taxonomies, terms, menus,
 * sections, widget areas, settings) from the generated OpenAPI types, and
 * the two translation listings the contract keeps out of REST (MCP tools;
 * served to the admin on hidden routes, typed here by hand).
 */

import type { components } from '../../../generated/api-schema.gen';
import { get, seg } from './http';

type S = components['schemas'];

export type Taxonomy = S['Taxonomy'];
export type Term = S['Term'];
export type Menu = S['Menu'];
export type MenuWithItems = S['MenuWithItems'];
export type MenuItem = S['MenuItem'];
export type Section = S['Section'];
export type WidgetArea = S['WidgetArea'];
export type WidgetAreaWithWidgets = S['WidgetAreaWithWidgets'];
export type Widget = S['Widget'];
export type WidgetCreate = S['CreateWidgetRequest'];
export type WidgetUpdate = S['UpdateWidgetRequest'];
export type SiteSettings = S['SiteSettings'];
export type SettingsUpdate = S['UpdateSettingsRequest'];
export type MenuItemInput = S['CreateMenuItemRequest'];

export const hiddenApi = {
  termTranslations: (idOrGroup: string) =>
    get<{ translationGroup: string; items: Term[] }>(`/term-translations/${seg(idOrGroup)}`),
  menuTranslations: (idOrGroup: string) =>
    get<{ translationGroup: string; items: Menu[] }>(`/menu-translations/${seg(idOrGroup)}`),
};

export const keys = {
  taxonomies: ['taxonomies'] as const,
  taxonomy: (name: string) => ['taxonomies', name] as const,
  terms: (name: string) => ['taxonomies', name, 'terms'] as const,
  menus: ['menus'] as const,
  menu: (name: string, locale: string) => ['menus', name, locale] as const,
  sections: ['sections'] as const,
  widgetAreas: ['widget-areas'] as const,
  settings: ['settings'] as const,
};

import { label, MachineName, safeText } from '../structure-text.js';

/** Value rules of menus and their items: the request bodies are built from them, stored records judged by them. */
export const MENU_RULES = {
  name: MachineName,
  label: label(),
  /** Shown instead of the target's title; required for URL items. */
  itemLabel: safeText(300),
  /** URL items: what the url field's safety rules accept (checkUrl). */
  itemUrl: safeText(2000),
};

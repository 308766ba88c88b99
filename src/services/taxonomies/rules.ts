import { label, MachineName, safeText } from '../structure-text.js';

/** Value rules of taxonomies and terms: the request bodies are built from them, stored records judged by them. */
export const TAXONOMY_RULES = {
  name: MachineName,
  label: label(),
  /** Collections whose entries take the terms. */
  maxCollections: 100,
  termDescription: safeText(2000).nullable(),
};

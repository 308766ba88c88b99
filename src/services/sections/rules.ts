import { label, safeText } from '../structure-text.js';

/** Value rules of sections: the request bodies are built from them, stored records judged by them. */
export const SECTION_RULES = {
  title: label(),
  description: safeText(1000).nullable(),
  /** Portable Text blocks a section holds at most. */
  maxBlocks: 2000,
};

import { z } from 'zod';
import { isStorableText } from '../core/text.js';

/**
 * Text rules of the structure records (labels, names, descriptions of
 * taxonomies, menus, sections, widgets …). The request schemas are built
 * from these, and a record read from a site package is judged by the same
 * ones, so a limit is written once.
 */

/** Length limits plus the NUL and lone-surrogate rule, so both databases answer the same 400 naming the field. */
export function safeText(max: number, min = 0) {
  return z
    .string()
    .min(min)
    .max(max)
    .refine(isStorableText, { message: 'must not contain NUL characters or unpaired surrogates' });
}

/** A trimmed label: 1 to `max` characters after trimming. */
export function label(max = 200) {
  return safeText(max + 100)
    .transform((v) => v.trim())
    .pipe(z.string().min(1, 'must not be empty').max(max));
}

/** Machine names (taxonomies, menus, widget areas): lower-case letters, digits, `_` and `-`. */
export const MachineName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_-]*$/, 'must start with a letter and use only a-z, 0-9, _ and -');

import { z } from '@hono/zod-openapi';
import { findTextProblem, isStorableText } from '../core/text.js';

/**
 * Strings for structure records (labels, names, descriptions): length limits
 * plus the NUL and lone-surrogate rule, so both databases answer the same 400
 * naming the field.
 */
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

/** Any JSON value whose strings store on both engines. */
export const SafeJson = z.unknown().superRefine((v, ctx) => {
  const problem = findTextProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
});

/** A locale code as configured (validated against the configuration by the services). */
export const LocaleParam = z.string().min(1).max(35).optional();

export const CursorQuery = {
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
};

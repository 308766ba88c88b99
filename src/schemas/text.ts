import { z } from '@hono/zod-openapi';
import { findTextProblem } from '../core/text.js';

/** Structure text rules live with the services that also judge stored records by them. */
export { label, MachineName, safeText } from '../services/structure-text.js';

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

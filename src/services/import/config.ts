import { z } from 'zod';

/**
 * The `config` of an import's execute step (the WordPress import routes and the exporter plugin):
 * how post types map to collections, authors to users, and what else is written. Declared with the
 * import service, which runs by it; the request schemas (schemas/import.ts) build on it.
 */

/** A name in an import body (a post type, an author login). */
export const importName = z.string().min(1).max(200);
export const collectionSlug = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'must start with a lowercase letter and contain only a-z, 0-9 and _')
  .max(63);

/** A post type's target: a collection slug, `{ collection, enabled }`, or null to leave the type out. */
const mapping = z.union([
  collectionSlug,
  z.null(),
  z.strictObject({ collection: collectionSlug, enabled: z.boolean().optional() }),
]);

export const executeConfigSchema = z.strictObject({
  postTypeMappings: z.record(importName, mapping).default({}),
  skipExisting: z.boolean().default(false),
  /** Author login to user ID; null (or no entry) credits the author as a guest byline. */
  authorMappings: z.record(importName, z.string().min(1).max(64).nullable()).optional(),
  importSections: z.boolean().default(true),
  locale: z.string().min(1).max(35).optional(),
});

export type ExecuteConfigInput = z.input<typeof executeConfigSchema>;
export type ExecuteConfig = z.output<typeof executeConfigSchema>;

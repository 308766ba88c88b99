import { z } from '@hono/zod-openapi';

/** The error envelope every failure answers with. */
export const ErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().openapi({ example: 'VALIDATION_ERROR' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi('ErrorResponse');

/** `{ success: true, data }` around any result schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const DeletedResult = z.object({ deleted: z.literal(true), slug: z.string() }).openapi('DeletedResult');

/** An identifier slug of at most `max` characters (one limit per schema, so a too-long value gets one message). */
export const identifierSlug = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[a-z][a-z0-9_]*$/);

export const SlugParam = identifierSlug(63);

export const ReorderBody = z
  .object({
    slugs: z
      .array(z.string().min(1))
      .min(1)
      .max(1000)
      .openapi({ description: 'Slugs in their new order; unlisted ones follow in their current order' }),
  })
  .strict()
  .openapi('ReorderRequest');

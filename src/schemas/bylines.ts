import { z } from '@hono/zod-openapi';
import { BYLINE_RULES } from '../services/content/byline-rules.js';

/** Byline management bodies (hidden REST routes and MCP tools share them). */
export const BylineCreateBody = z
  .object({
    displayName: BYLINE_RULES.displayName,
    slug: z.string().max(200).optional(),
    bio: BYLINE_RULES.bio.optional(),
    avatarUrl: BYLINE_RULES.url.optional(),
    websiteUrl: BYLINE_RULES.url.optional(),
    userId: z.string().nullable().optional().describe('Link to a user (null: a guest credit)'),
    locale: z.string().optional(),
    translationOf: z
      .string()
      .optional()
      .describe('Byline ID of the source; the translation keeps its user unless userId is given'),
  })
  .strict();

export const BylineUpdateBody = BylineCreateBody.omit({ locale: true, translationOf: true }).partial().strict();

export const BylineListQuery = z.object({
  locale: z.string().optional(),
  search: z.string().max(200).optional(),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

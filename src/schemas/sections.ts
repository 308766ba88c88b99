import { z } from '@hono/zod-openapi';
import { SECTION_RULES } from '../services/sections/rules.js';
import { CursorQuery, safeText } from './text.js';

/** Sections: reusable Portable Text blocks. */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
const PortableText = z
  .array(z.unknown())
  .max(SECTION_RULES.maxBlocks)
  .openapi({ description: 'Portable Text blocks (links follow the url field rules)' });

export const SectionSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    content: PortableText.optional().openapi({ description: 'Single reads only' }),
    blockCount: z.number().int(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .openapi('Section');

export const SectionList = z
  .object({ items: z.array(SectionSchema), nextCursor: z.string().optional() })
  .openapi('SectionList');

export const SectionCreateBody = z
  .object({
    slug: z.string().max(200).optional().openapi({ description: 'Generated from the title when omitted' }),
    title: SECTION_RULES.title,
    description: SECTION_RULES.description.optional(),
    content: PortableText.optional(),
  })
  .strict()
  .openapi('CreateSectionRequest');

export const SectionUpdateBody = SectionCreateBody.partial().strict().openapi('UpdateSectionRequest');

export const SectionParams = z.object({ slug: z.string().min(1).max(200) });
export const SectionListQuery = z.object({
  search: safeText(200).optional().openapi({ description: 'Part of the title or slug' }),
  ...CursorQuery,
});
export const SectionDeleted = z.object({ deleted: z.literal(true), slug: z.string() }).openapi('SectionDeleted');

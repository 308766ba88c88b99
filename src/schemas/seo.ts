import { z } from '@hono/zod-openapi';
import { ENTRY_SEO_RULES } from '../services/seo/entry-rules.js';
import { SlugParam } from './common.js';
import { safeString } from './safe-text.js';

/** Entry SEO and hreflang alternates. */

export const SeoEntryParams = z.object({
  collection: SlugParam.openapi({ param: { name: 'collection', in: 'path' } }),
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'Database ID of the entry' }),
});

export const EntrySeoSchema = z
  .object({
    collection: z.string(),
    contentId: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    canonical: z.string().nullable(),
    noindex: z.boolean().openapi({ description: 'Keeps the entry out of sitemaps and hreflang alternates' }),
    updatedAt: z.string().nullable(),
  })
  .openapi('EntrySeo');

export const UpdateEntrySeoBody = z
  .object({
    title: ENTRY_SEO_RULES.title.optional(),
    description: ENTRY_SEO_RULES.description.optional(),
    canonical: ENTRY_SEO_RULES.canonical.optional(),
    noindex: z.boolean().optional(),
  })
  .strict()
  .openapi('UpdateEntrySeoRequest');

export const AlternatesQuery = z.object({
  siteUrl: safeString()
    .max(500)
    .refine((v) => /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(v) && URL.canParse(v), {
      message: 'must be an http(s) base URL without query or fragment',
    })
    .optional()
    .openapi({
      param: { name: 'siteUrl', in: 'query' },
      description: 'Base of the absolute links (default: the site URL)',
    }),
});

export const AlternatesResult = z
  .object({
    items: z.array(
      z.object({
        hreflang: z.string().openapi({ example: 'fr' }),
        href: z.string().openapi({ example: 'https://example.com/fr/blog/bonjour' }),
      }),
    ),
  })
  .openapi('HreflangAlternates');

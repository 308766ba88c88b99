import { z } from '@hono/zod-openapi';

/** Site settings. Rules (time zone names, site URL shape, media references) are checked by the service. */

const MediaId = z.string().max(64).nullable().openapi({ description: 'ID of a media item' });

export const SettingsSchema = z
  .object({
    title: z.string().nullable(),
    tagline: z.string().nullable(),
    logo: MediaId,
    favicon: MediaId,
    timezone: z
      .string()
      .openapi({ description: 'IANA time zone; the admin date-time picker uses it', example: 'Europe/Paris' }),
    siteUrl: z
      .string()
      .nullable()
      .openapi({ description: "The public site's address (sitemaps, hreflang); null: the service's publicUrl" }),
    seo: z.object({
      defaultOgImage: MediaId.openapi({ description: 'Social image used when an entry has none' }),
      titleSeparator: z.string(),
      description: z.string().nullable(),
    }),
  })
  .openapi('SiteSettings');

export const SettingsUpdateBody = z
  .object({
    title: z.string().max(1000).optional(),
    tagline: z.string().max(2000).nullable().optional(),
    logo: MediaId.optional(),
    favicon: MediaId.optional(),
    timezone: z.string().max(64).optional(),
    siteUrl: z.string().max(2000).nullable().optional(),
    seo: z
      .object({
        defaultOgImage: MediaId.optional(),
        titleSeparator: z.string().max(100).nullable().optional(),
        description: z.string().max(2000).nullable().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('UpdateSettingsRequest');

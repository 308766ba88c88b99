import { z } from '@hono/zod-openapi';
import { GetContentQuery } from './content.js';

/** Preview links (docs/frontends.md#preview). */

const PreviewToken = z.string().min(1).max(2048);

export const PreviewLinkSchema = z
  .object({
    token: z.string().openapi({
      description:
        'Signed token for reading this entry’s draft: pass it to getContent as `?preview=` (or the `X-CMS-Preview` header)',
    }),
    expiresAt: z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' }),
    url: z.string().nullable().openapi({
      description:
        'The entry’s page on the site’s front end (the `siteUrl` setting, the collection’s URL pattern for the entry’s locale, the draft’s slug) with `?preview=<token>`; null when one of them is missing',
    }),
    missing: z.enum(['siteUrl', 'urlPattern', 'slug']).nullable().openapi({
      description:
        'Why `url` is null: no site address in the settings, no URL pattern for the collection (or its locale), or no slug',
    }),
  })
  .openapi('ContentPreviewLink');

export const PreviewRotateResult = z
  .object({ rotatedAt: z.string().openapi({ format: 'date-time' }) })
  .openapi('ContentPreviewSecretRotation');

/** getContent's query: the slug lookup's locale, and a preview token. */
export const GetContentPreviewQuery = GetContentQuery.extend({
  preview: PreviewToken.optional().openapi({
    param: { name: 'preview', in: 'query' },
    description:
      'A preview token from getContentPreviewUrl: the read answers that entry with its pending draft (anonymous callers too), and refuses any other entry with 403 PREVIEW_TOKEN_INVALID. The `X-CMS-Preview` header works the same. Answers carry `Cache-Control: no-store`.',
  }),
});

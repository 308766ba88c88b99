import { createAuthService } from './auth/index.js';
import { createCheckService } from './check/index.js';
import { createCommentsService } from './comments/index.js';
import { createContentService } from './content/index.js';
import type { ServiceContext } from './context.js';
import { createHealthService } from './health/index.js';
import { createImportService } from './import/index.js';
import { createMediaCopyService } from './import/media-copy/index.js';
import { createMediaService } from './media/index.js';
import { createMediaUsageService } from './media-usage/index.js';
import { createMenuService } from './menus/index.js';
import { createOAuthService } from './oauth/index.js';
import { createRedirectsService } from './redirects/index.js';
import { createSchemaService } from './schema/index.js';
import { createSearchService } from './search/index.js';
import { createSectionService } from './sections/index.js';
import { createSeoService } from './seo/index.js';
import { createSettingsService } from './settings/index.js';
import { createTaxonomyService } from './taxonomies/index.js';
import { createTokensService } from './tokens/index.js';
import { createTransferService } from './transfer/index.js';
import { createUsersService } from './users/index.js';
import { createWidgetService } from './widgets/index.js';

/** Every domain service, built once per process from one context. */
export function createServices(ctx: ServiceContext) {
  const users = createUsersService(ctx);
  const tokens = createTokensService(ctx);
  const schema = createSchemaService(ctx);
  const settings = createSettingsService(ctx);
  // A role change or a disable must not be served from the token cache of this process.
  users.onAccessChange(() => tokens.invalidate());
  const content = createContentService(ctx, schema);
  const media = createMediaService(ctx, schema);
  // Image and file field values must point at ready library items (checked inside each entry write).
  content.hooks.afterWrite('media-fields', media.fieldListener);
  // Content reads show image field values with their srcset (from the values alone, no query).
  content.hooks.presentValues(media.presentFieldValues);
  const taxonomies = createTaxonomyService(ctx, schema, content);
  const menus = createMenuService(ctx, schema, content);
  const sections = createSectionService(ctx);
  // After the field check: the usage index keeps what the write left, in the same transaction.
  const mediaUsage = createMediaUsageService(ctx, { schema, content, media });
  const search = createSearchService(ctx, { schema, content });
  const transfer = createTransferService(ctx, { schema, media, search, mediaUsage });
  content.scheduler.pauseWhile(transfer.holdsSite);
  return {
    users,
    tokens,
    settings,
    auth: createAuthService(ctx, { users, tokens, settings }),
    schema,
    content,
    media,
    taxonomies,
    menus,
    sections,
    import: createImportService(ctx, { schema, content, taxonomies, menus, sections }),
    importMedia: createMediaCopyService({ ctx, schema, content, media }),
    mediaUsage,
    widgets: createWidgetService(ctx, schema),
    search,
    oauth: createOAuthService(ctx, { tokens }),
    comments: createCommentsService(ctx, { schema, content }),
    redirects: createRedirectsService(ctx),
    seo: createSeoService(ctx, { schema, content }),
    health: createHealthService(ctx),
    transfer,
    check: createCheckService(ctx, { schema, media, search, mediaUsage }),
  };
}

export type Services = ReturnType<typeof createServices>;

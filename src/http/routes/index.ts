import type { Api } from '../op.js';
import { adminContentRoutes } from './admin-content.js';
import { allowedDomainRoutes } from './allowed-domains.js';
import { authRoutes } from './auth.js';
import { bylineRoutes } from './bylines.js';
import { checkRoutes } from './check.js';
import { commentRoutes } from './comments.js';
import { contentRoutes } from './content.js';
import { importRoutes } from './import.js';
import { mediaRoutes } from './media.js';
import { mediaUsageRoutes } from './media-usage.js';
import { menuRoutes } from './menus.js';
import { oauthConnectionRoutes } from './oauth-connections.js';
import { oauthConsentRoutes } from './oauth-consent.js';
import { redirectRoutes } from './redirects.js';
import { schemaRoutes } from './schema.js';
import { searchRoutes } from './search.js';
import { sectionRoutes } from './sections.js';
import { seoRoutes } from './seo.js';
import { settingsRoutes } from './settings.js';
import { taxonomyRoutes } from './taxonomies.js';
import { transferRoutes } from './transfer.js';
import { usersRoutes } from './users.js';
import { widgetRoutes } from './widgets.js';

/** Every REST route, grouped by resource. */
export function registerRoutes(api: Api): void {
  schemaRoutes(api);
  contentRoutes(api);
  adminContentRoutes(api);

  mediaRoutes(api);
  mediaUsageRoutes(api);
  searchRoutes(api);
  bylineRoutes(api);
  taxonomyRoutes(api);
  menuRoutes(api);
  sectionRoutes(api);
  widgetRoutes(api);
  settingsRoutes(api);
  authRoutes(api);
  usersRoutes(api);
  transferRoutes(api);
  allowedDomainRoutes(api);
  oauthConsentRoutes(api);
  oauthConnectionRoutes(api);
  commentRoutes(api);
  redirectRoutes(api);
  seoRoutes(api);
  importRoutes(api);
  checkRoutes(api);
}

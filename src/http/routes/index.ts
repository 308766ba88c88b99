import type { Api } from '../op.js';
import { allowedDomainRoutes } from './allowed-domains.js';
import { authRoutes } from './auth.js';
import { bylineRoutes } from './bylines.js';
import { contentRoutes } from './content.js';
import { oauthConnectionRoutes } from './oauth-connections.js';
import { oauthConsentRoutes } from './oauth-consent.js';
import { schemaRoutes } from './schema.js';
import { usersRoutes } from './users.js';

/** Every REST route, grouped by resource. */
export function registerRoutes(api: Api): void {
  schemaRoutes(api);
  contentRoutes(api);
  bylineRoutes(api);
  authRoutes(api);
  usersRoutes(api);
  allowedDomainRoutes(api);
  oauthConsentRoutes(api);
  oauthConnectionRoutes(api);
}

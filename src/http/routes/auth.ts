import type { Api } from '../op.js';
import { authInviteRoutes } from './auth-invites.js';
import { authMagicLinkRoutes } from './auth-links.js';
import { authPasskeyRoutes } from './auth-passkeys.js';
import { authProviderRoutes } from './auth-providers.js';
import { authSessionRoutes } from './auth-session.js';
import { authSetupRoutes } from './auth-setup.js';
import { authSignupRoutes } from './auth-signup.js';
import { authTokenRoutes } from './auth-tokens.js';

/** Identity routes of docs/auth-contract.md (all hidden from OpenAPI). */
export function authRoutes(api: Api): void {
  authSessionRoutes(api);
  authSetupRoutes(api);
  authPasskeyRoutes(api);
  authProviderRoutes(api);
  authMagicLinkRoutes(api);
  authInviteRoutes(api);
  authSignupRoutes(api);
  authTokenRoutes(api);
}

import type { ServiceContext } from '../context.js';
import type { TokensService } from '../tokens/index.js';
import type { UsersService } from '../users/index.js';
import type { ChallengeStore } from './challenges.js';
import type { EmailProvider } from './email.js';
import type { SessionsService } from './sessions.js';
import type { SiteSettingsStore } from './site-settings.js';
import type { RelyingParty } from './webauthn.js';

/** What the parts of the auth domain share. */
export interface AuthDeps {
  ctx: ServiceContext;
  rp: RelyingParty;
  challenges: ChallengeStore;
  sessions: SessionsService;
  site: SiteSettingsStore;
  /** null when email is not configured. */
  email: EmailProvider | null;
  users: UsersService;
  tokens: TokensService;
}

import type { BackgroundTasks } from '../background.js';
import type { ServiceContext } from '../context.js';
import type { SettingsService } from '../settings/index.js';
import type { TokensService } from '../tokens/index.js';
import type { UsersService } from '../users/index.js';
import type { ChallengeStore } from './challenges.js';
import type { EmailProvider } from './email.js';
import type { SessionsService } from './sessions.js';
import type { RelyingParty } from './webauthn.js';

/** What the parts of the auth domain share. */
export interface AuthDeps {
  ctx: ServiceContext;
  rp: RelyingParty;
  challenges: ChallengeStore;
  sessions: SessionsService;
  /** The site's identity, owned by the settings domain. */
  site: Pick<SettingsService, 'site' | 'siteName' | 'writeIdentity'>;
  /** null when email is not configured. */
  email: EmailProvider | null;
  users: UsersService;
  tokens: TokensService;
  /** Work done after the answer (mail; lookups whose timing would reveal whether an account exists). */
  later: BackgroundTasks;
}

import { isIP } from 'node:net';
import type { Actor } from '../../auth/actor.js';
import { authMode } from '../../core/config-auth.js';
import { CmsError } from '../../core/errors.js';
import { backgroundTasks } from '../background.js';
import type { ServiceContext } from '../context.js';
import type { SettingsService, SiteIdentity } from '../settings/index.js';
import type { TokensService } from '../tokens/index.js';
import type { UsersService } from '../users/index.js';
import { challengeStore } from './challenges.js';
import { clientIp, type RequestFacts } from './client-ip.js';
import type { AuthDeps } from './deps.js';
import { domainOps } from './domains.js';
import { edgeAccessOps } from './edge-access/index.js';
import { createEmailProvider } from './email.js';
import { enrolment } from './enrolment.js';
import { inviteOps } from './invites.js';
import { magicLinkOps } from './magic-links.js';
import { featureGate } from './mode-gate.js';
import { passkeyOps } from './passkeys.js';
import { type SessionUser, sessionUser } from './present.js';
import { providerOps } from './providers/index.js';
import { type RateLimitRule, rateLimiter } from './rate-limits.js';
import { sessionsService } from './sessions.js';
import { setupOps } from './setup.js';
import { signupOps } from './signup.js';
import { tokenRouteOps } from './tokens.js';
import { relyingParty } from './webauthn.js';

export type { EmailMessage, EmailProvider } from './email.js';
export { RATE_LIMITS, type RateLimitRule } from './rate-limits.js';
export { SESSION_COOKIE } from './sessions.js';
export type { SessionUser, SiteIdentity };

/**
 * Identity and access: sessions, first-user setup, passkeys, magic links,
 * invites, sign-up with allowed domains, personal access tokens for the
 * signed-in user, and rate limits.
 */
export function createAuthService(
  ctx: ServiceContext,
  services: { users: UsersService; tokens: TokensService; settings: SettingsService },
) {
  const deps: AuthDeps = {
    ctx,
    rp: relyingParty(ctx.config.publicUrl),
    challenges: challengeStore(ctx),
    sessions: sessionsService(ctx),
    site: services.settings,
    email: createEmailProvider(ctx.config.email, ctx.log),
    users: services.users,
    tokens: services.tokens,
    later: backgroundTasks(ctx.log),
  };
  if (isIP(deps.rp.id)) {
    ctx.log.warn(
      { publicUrl: ctx.config.publicUrl },
      'publicUrl uses an IP address: browsers refuse passkeys there; use a host name (e.g. http://localhost:4321)',
    );
  }
  const passkeys = passkeyOps(deps);
  const enrol = enrolment(deps, passkeys);
  const domains = domainOps(ctx);
  const limiter = rateLimiter(ctx);
  const mode = authMode(ctx.config);
  const edgeAccess = ctx.config.auth.type === 'edge-access' ? edgeAccessOps(deps, ctx.config.auth) : null;
  // What the edge access gateway mode takes away (the contract's list); the default mode keeps all.
  const gate = featureGate(ctx.config);
  const setup = setupOps(deps, enrol);

  /** The caller as `/auth/me` shows them, with the site's identity. */
  async function me(actor: Actor): Promise<{
    user: SessionUser;
    site: SiteIdentity | null;
    i18n: { locales: string[]; defaultLocale: string };
  }> {
    if (actor.kind !== 'user' || !actor.userId) throw new CmsError('UNAUTHORIZED', 'Not signed in');
    const user = await services.users.get(actor.userId);
    const { locales, defaultLocale } = ctx.config.i18n;
    return { user: sessionUser(user), site: await deps.site.site(), i18n: { locales, defaultLocale } };
  }

  return {
    /** Public origin of the site (for the Origin rule of public writes). */
    publicOrigin: deps.rp.origin,
    sessions: deps.sessions,
    /** The edge access gateway mode's sign-in; null in the default mode. */
    edgeAccess,
    setup: {
      ...gate('setup', setup, ['options', 'complete']),
      // The first user comes from the gateway: there is nothing to set up.
      status: async () => (edgeAccess ? { needsSetup: false, site: await deps.site.site() } : setup.status()),
    },
    passkeys: gate('passkey-registration', gate('login-page', passkeys, ['signInOptions', 'signIn']), [
      'addOptions',
      'add',
    ]),
    magicLinks: gate('magic-link', magicLinkOps(deps), ['send', 'consume', 'recovery', 'commandLineLink']),
    invites: gate('invites', inviteOps(deps, enrol), ['create', 'lookup', 'acceptOptions', 'accept']),
    domains,
    signup: gate('signup', signupOps(deps, domains, enrol), ['request', 'lookup', 'options', 'complete']),
    tokens: tokenRouteOps(deps),
    /** Login providers: the configured list, start and callback of a sign-in, linked identities. */
    providers: gate('login-providers', providerOps(deps, { setup, invites: inviteOps(deps, enrol), domains }), [
      'start',
    ]),
    me,
    /** Which sign-in methods this site offers (the login page asks). */
    methods: async () => {
      if (edgeAccess) {
        return {
          mode,
          passkey: false,
          magicLink: false,
          signup: false,
          gateway: { signOutUrl: edgeAccess.signOutUrl },
        };
      }
      const open = await ctx.db
        .selectFrom('_cms_allowed_domains')
        .select('domain')
        .where('enabled', '=', 1)
        .limit(1)
        .executeTakeFirst();
      return { mode, passkey: true, magicLink: deps.email !== null, signup: deps.email !== null && !!open };
    },
    /** Count a request against a rate limit, for the client IP the request facts give. */
    rateLimit: (rule: RateLimitRule, facts: RequestFacts) =>
      limiter.hit(rule, clientIp(facts, ctx.config.trustedProxyHeaders)),
    /** Resolves when the work started after earlier answers (mail …) is done. */
    settled: () => deps.later.settled(),
    async close() {
      await deps.later.settled();
      deps.email?.close();
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

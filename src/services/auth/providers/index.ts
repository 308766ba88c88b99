import { type Actor, can } from '../../../auth/actor.js';
import { CmsError, isCmsError, notFound, validationError } from '../../../core/errors.js';
import { normalizeEmail } from '../../users/index.js';
import type { AuthDeps } from '../deps.js';
import { requireUser } from '../present.js';
import { hashSecret } from '../secrets.js';
import type { NewSession } from '../sessions.js';
import { siteFields } from '../setup.js';
import { type AccountParts, providerAccounts } from './accounts.js';
import { identityOps } from './identities.js';
import { createProviderRegistry } from './registry.js';
import { type SigninData, type SigninIntent, signinStore } from './signins.js';
import { providerStorage } from './storage.js';
import type { ProviderDescriptor, ProviderKind, VerifiedIdentity } from './types.js';

export { callbackUrlOf } from './descriptor.js';
export { SIGNIN_TTL_MS } from './signins.js';

/** The cookie that binds a sign-in in flight to the browser that started it. */
export const PROVIDER_BROWSER_COOKIE = 'cms_oauth_browser';

export interface ProviderListing {
  id: string;
  label: string;
  kind: ProviderKind;
  /** Admins only: the URL to register with the provider. */
  callbackUrl?: string;
  /** Admins only: whether the credentials it needs are set (start-up refuses a listed provider without them). */
  credentialsSet?: boolean;
  /** Admins only: the descriptor (admin entry, routes, public routes, storage). */
  descriptor?: ProviderDescriptor;
}

export type StartInput =
  | { intent: 'login'; input?: string | null }
  | { intent: 'link'; input?: string | null }
  | { intent: 'invite'; token: string; input?: string | null }
  | {
      intent: 'setup';
      siteTitle: string;
      tagline?: string | null;
      name?: string | null;
      /** The wizard's address: the first account's, when the provider gives none (AT Protocol). */
      email?: string | null;
      input?: string | null;
    };

/** Where the callback sends the browser, and the session it opened (the route sets the cookie). */
export interface CallbackResult {
  location: string;
  session: NewSession | null;
}

const ADMIN = '/_cms/admin';

/**
 * Sign-in through login providers: the configured providers (in rendering
 * order), the start of a sign-in, the callback, and the user's linked
 * identities. The rules of what an identity may do are in accounts.ts.
 */
export function providerOps(
  deps: AuthDeps,
  parts: AccountParts & { invites: { pending(token: string): Promise<{ token_hash: string }> } },
) {
  const { ctx } = deps;
  const registry = createProviderRegistry(ctx.config.providers, ctx.config.publicUrl, ctx.log, providerStorage(ctx));
  const store = signinStore(ctx);
  const accounts = providerAccounts(deps, parts);

  /** The providers the login page, setup wizard and invite page show, in the order they show them. */
  function list(actor: Actor): ProviderListing[] {
    const admin = can(actor, 'users:manage');
    return registry.rendering.map((p) => ({
      id: p.id,
      label: p.label,
      kind: p.kind,
      ...(admin ? { callbackUrl: registry.callbackUrl(p.id), credentialsSet: true, descriptor: p.descriptor } : {}),
    }));
  }

  function provider(id: string) {
    const found = registry.get(id);
    if (!found) throw notFound('Login provider', { provider: id });
    return found;
  }

  /**
   * Begin a sign-in: check what the intent needs (setup still open, a pending invite, a signed-in
   * session for `link`), ask the provider where to send the browser, keep the sign-in for the
   * callback. `browser` is the binding cookie the browser already holds, if any.
   */
  async function start(
    actor: Actor,
    id: string,
    body: StartInput,
    browser: string | null,
  ): Promise<{ url: string; browser: string }> {
    const p = provider(id);
    const input = body.input?.trim() || null;
    if (p.kind === 'form' && !input) throw validationError(`${p.label} needs what its form asks for (input)`);
    let inviteHash: string | null = null;
    let userId: string | null = null;
    const data: SigninData = { input };
    const intent: SigninIntent = body.intent;
    if (body.intent === 'setup') {
      if (!(await parts.setup.needsSetup())) {
        throw new CmsError('SETUP_COMPLETE', 'Setup is complete: the site already has users');
      }
      const email = body.email?.trim() ? normalizeEmail(body.email) : null;
      data.setup = { ...siteFields(body), name: body.name?.trim() || null, email };
    } else if (body.intent === 'invite') {
      inviteHash = (await parts.invites.pending(body.token)).token_hash;
    } else if (body.intent === 'link') {
      userId = requireUser(actor);
      if (actor.via !== 'session') {
        throw new CmsError('FORBIDDEN', 'Providers are linked from a signed-in admin session, not with an API token');
      }
    }
    const made = store.secrets(browser);
    const begun = await p.begin({
      state: made.state,
      codeVerifier: made.codeVerifier,
      nonce: made.nonce,
      redirectUri: registry.callbackUrl(id),
      input,
    });
    if (begun.keep) data.kept = begun.keep;
    await store.save({ provider: id, intent, inviteHash, userId, data }, made);
    return { url: begun.url, browser: made.browser };
  }

  const refused = (intent: SigninIntent | null, err: CmsError) =>
    `${ADMIN}/${intent === 'link' ? 'account' : 'login'}?error=${encodeURIComponent(err.code)}`;

  /**
   * The provider's redirect back. Never throws: a refusal is a redirect to the login page (the
   * account page for `link`) with the error code; success is a redirect into the admin with the
   * session to set.
   */
  async function callback(
    id: string,
    query: URLSearchParams,
    context: { browser: string | null; previousSession: string | null; currentUserId: string | null },
  ): Promise<CallbackResult> {
    let intent: SigninIntent | null = null;
    try {
      const p = provider(id);
      const state = p.callbackState ? await p.callbackState(query) : query.get('state');
      const signin = state ? await store.take(state) : null;
      if (!signin || signin.provider !== id || !context.browser || hashSecret(context.browser) !== signin.browserHash) {
        throw new CmsError(
          'PROVIDER_STATE_INVALID',
          'This sign-in link is unknown, used, expired or was started in another browser; start again',
        );
      }
      intent = signin.intent;
      const error = query.get('error');
      if (error) {
        throw error === 'access_denied'
          ? new CmsError('PROVIDER_DENIED', `The sign-in was cancelled or refused at ${p.label}`)
          : new CmsError('PROVIDER_FAILED', `${p.label} did not complete the sign-in (${error.slice(0, 100)})`);
      }
      const callbackUrl = new URL(registry.callbackUrl(id));
      callbackUrl.search = query.toString();
      let identity: VerifiedIdentity;
      try {
        identity = await p.complete({
          callbackUrl,
          state: state!,
          codeVerifier: signin.codeVerifier,
          nonce: signin.nonce,
          redirectUri: registry.callbackUrl(id),
          kept: signin.data.kept ?? {},
        });
      } catch (err) {
        if (isCmsError(err)) throw err;
        ctx.log.warn({ err, provider: id }, 'login provider sign-in failed');
        throw new CmsError('PROVIDER_FAILED', `Signing in with ${p.label} failed`);
      }
      if (identity.provider !== id || typeof identity.subject !== 'string' || !identity.subject) {
        throw new CmsError('PROVIDER_FAILED', `${p.label} gave no account ID`);
      }
      const outcome = await accounts.signIn(identity, signin, context);
      return {
        location: intent === 'link' ? `${ADMIN}/account?linked=${encodeURIComponent(id)}` : `${ADMIN}/`,
        session: outcome.session,
      };
    } catch (err) {
      if (isCmsError(err)) {
        ctx.log.info({ provider: id, code: err.code, message: err.message }, 'login provider sign-in refused');
        return { location: refused(intent, err), session: null };
      }
      ctx.log.error({ err, provider: id }, 'login provider callback failed');
      return { location: refused(intent, new CmsError('PROVIDER_FAILED', 'failed')), session: null };
    }
  }

  /** A provider's public JSON document (the AT Protocol client metadata); 404 when it serves none by that name. */
  function document(id: string, name: string): Record<string, unknown> {
    const found = provider(id).document?.(name) ?? null;
    if (!found) throw notFound('Provider document', { provider: id, name });
    return found;
  }

  return { registry, list, start, callback, document, identities: identityOps(ctx, registry) };
}

export type ProviderOps = ReturnType<typeof providerOps>;

import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { listLinkedIdentities, listLoginProviders, unlinkIdentity } from '../../operations/auth.js';
import { ProviderParams, ProviderStartBody, ProviderStartResult } from '../../schemas/auth-providers.js';
import { PROVIDER_BROWSER_COOKIE, SIGNIN_TTL_MS } from '../../services/auth/providers/index.js';
import { SIGN_IN } from '../../services/holds.js';
import type { AppEnv } from '../env.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op, route } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** The binding cookie is sent only to the provider routes. */
const COOKIE_PATH = '/_cms/api/auth/oauth';

/**
 * Sign-in through login providers (hidden from OpenAPI, like every sign-in route):
 *
 *   GET    /auth/providers                       the configured providers, in the login page's order
 *                                                (button-only first, then form providers, each in list
 *                                                order): { id, label, kind }; for Admins also
 *                                                callbackUrl, credentialsSet and the descriptor
 *   POST   /auth/oauth/{provider}/start          { intent: 'login' | 'link' | 'invite' (token) |
 *                                                'setup' (siteTitle, tagline?, name?), input? (form
 *                                                providers) } → { url }: send the browser there.
 *                                                CSRF rules of public writes; 10 per minute per client IP
 *   GET    /auth/oauth/{provider}/callback       where the provider sends the browser back: a 302 into
 *                                                the admin (session cookie set), or to
 *                                                /_cms/admin/login?error=<CODE> (link: /_cms/admin/account)
 *   GET    /auth/oauth/{provider}/{name}.json    a public document of the provider (the AT Protocol
 *                                                client metadata, client-metadata.json); 404 otherwise
 *   GET    /auth/identities                      the signed-in user's linked identities
 *   DELETE /auth/identities/{provider}/{subject} unlink one (409 LAST_SIGN_IN_METHOD when it is the last way in)
 */
export function authProviderRoutes(api: Api): void {
  const tags = ['Auth'];
  api.use('/auth/oauth/:provider/start', publicWrite(), rateLimit('providerStart'));

  route(api, {
    operation: listLoginProviders,
    method: 'get',
    path: '/auth/providers',
    summary: 'Login providers this site offers, in the order the login page shows them',
    tags,
    hidden: true,
    public: true,
  });

  op(
    api,
    {
      method: 'post',
      path: '/auth/oauth/{provider}/start',
      operationId: 'startProviderSignIn',
      summary: "Start a sign-in (or setup, invite acceptance, link) with a login provider: the provider's URL",
      tags,
      openDuring: SIGN_IN,
      hidden: true,
      public: true,
      params: ProviderParams,
      body: ProviderStartBody,
      response: ProviderStartResult,
    },
    async ({ actor, services, params, body, c }) => {
      const { url, browser } = await services.auth.providers.start(
        actor,
        params.provider,
        body,
        getCookie(c, PROVIDER_BROWSER_COOKIE) ?? null,
      );
      setCookie(c, PROVIDER_BROWSER_COOKIE, browser, {
        httpOnly: true,
        secure: services.auth.sessions.cookie.secure,
        sameSite: 'Lax',
        path: COOKIE_PATH,
        maxAge: Math.floor(SIGNIN_TTL_MS / 1000),
      });
      c.header('Cache-Control', 'no-store');
      return { url };
    },
  );

  op(
    api,
    {
      method: 'get',
      path: '/auth/oauth/{provider}/callback',
      operationId: 'providerCallback',
      summary: 'Where the provider sends the browser back (redirects into the admin)',
      tags,
      hidden: true,
      public: true,
      // Any text: an unknown provider is a redirect with an error code like every other refusal.
      params: z.object({ provider: z.string().max(200) }),
      response: z.unknown(),
    },
    async ({ actor, params, c }) => callback(c, actor.via === 'session' ? actor.userId : null, params.provider),
  );

  op(
    api,
    {
      method: 'get',
      path: '/auth/oauth/{provider}/{document}',
      operationId: 'providerDocument',
      summary: "A provider's public document, such as the AT Protocol client metadata",
      tags,
      hidden: true,
      public: true,
      params: z.object({
        provider: ProviderParams.shape.provider,
        document: z
          .string()
          .regex(/^[a-z0-9-]{1,64}\.json$/, 'expected a document name such as "client-metadata.json"'),
      }),
      response: z.unknown(),
    },
    async ({ services, params, c }) => {
      const found = services.auth.providers.document(params.provider, params.document);
      c.header('Cache-Control', 'public, max-age=300');
      return c.json(found);
    },
  );

  route(api, {
    operation: listLinkedIdentities,
    method: 'get',
    path: '/auth/identities',
    summary: "The signed-in user's identities at login providers",
    tags,
    hidden: true,
  });

  route(api, {
    operation: unlinkIdentity,
    method: 'delete',
    path: '/auth/identities/{provider}/{subject}',
    summary: 'Unlink an identity (never the last way in)',
    tags,
    hidden: true,
  });
}

async function callback(c: Context<AppEnv>, currentUserId: string | null, provider: string): Promise<Response> {
  const services = c.get('services');
  const here = new URL(c.req.url);
  const back = loopbackBounce(here, services.auth.providers.registry.callbackUrl(provider));
  if (back) return c.redirect(back, 302);
  const raw = here.search;
  const result = await services.auth.providers.callback(provider, new URLSearchParams(raw.length > 8192 ? '' : raw), {
    browser: getCookie(c, PROVIDER_BROWSER_COOKIE) ?? null,
    previousSession: currentSessionId(c),
    currentUserId,
  });
  if (result.session) signedIn(c, { user: null, session: result.session });
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(result.location, 302);
}

/**
 * A loopback site (`publicUrl` on `localhost`) reached at 127.0.0.1 or [::1] on the same port: the
 * redirect URI of the AT Protocol's loopback client form, which RFC 8252 keeps off `localhost`.
 * The browser holds the sign-in's cookies for `localhost`, so the callback is sent there first,
 * with the same query and nothing else done.
 */
function loopbackBounce(here: URL, publicCallback: string): string | null {
  const site = new URL(publicCallback);
  if (site.protocol !== 'http:' || site.hostname !== 'localhost') return null;
  if (here.hostname !== '127.0.0.1' && here.hostname !== '[::1]') return null;
  if (here.port !== site.port) return null;
  return `${site.origin}${here.pathname}${here.search}`;
}

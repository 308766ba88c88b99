import * as client from 'openid-client';
import { CmsError } from '../../../core/errors.js';
import { oauthDescriptor } from './descriptor.js';
import type { OutboundFetch } from './outbound.js';
import { PROVIDER_TIMEOUT_MS } from './outbound.js';
import type { LoginProvider, LoginProviderDefinition } from './types.js';

/**
 * GitHub (OAuth 2; GitHub has no OpenID Connect for people). openid-client
 * drives the authorization request (PKCE S256, `state`) and the code exchange
 * against the endpoints configured here, without discovery. Who signed in
 * comes from the API: `/user` gives the stable numeric ID (the subject; a
 * login name can be renamed and reused) and `/user/emails` (scope `user:email`)
 * the primary address and whether GitHub verified it. GitHub Enterprise Server
 * and tests set CMS_OAUTH_GITHUB_URL and CMS_OAUTH_GITHUB_API_URL.
 */
export const githubProvider: LoginProviderDefinition = {
  id: 'github',
  create(settings, env): LoginProvider {
    const web = settings.urls.url;
    const api = settings.urls.apiUrl;
    env.fetch.allow(web);
    env.fetch.allow(api);
    const config = new client.Configuration(
      {
        issuer: web,
        authorization_endpoint: `${web}/login/oauth/authorize`,
        token_endpoint: `${web}/login/oauth/access_token`,
      },
      settings.clientId!,
      { client_secret: settings.clientSecret! },
      client.ClientSecretPost(settings.clientSecret!),
    );
    config[client.customFetch] = (url, options) => env.fetch(url, options as RequestInit);
    config.timeout = PROVIDER_TIMEOUT_MS / 1000;
    // http only for loopback stand-ins: the configuration refuses it elsewhere.
    if (new URL(web).protocol === 'http:') client.allowInsecureRequests(config);

    return {
      id: 'github',
      label: 'GitHub',
      kind: 'button',
      descriptor: oauthDescriptor('github', 'GitHub'),
      async begin(input) {
        const url = client.buildAuthorizationUrl(config, {
          redirect_uri: input.redirectUri,
          scope: 'read:user user:email',
          state: input.state,
          code_challenge: await client.calculatePKCECodeChallenge(input.codeVerifier),
          code_challenge_method: 'S256',
          allow_signup: 'false',
        });
        return { url: url.toString() };
      },
      async complete(input) {
        let accessToken: string;
        try {
          const tokens = await client.authorizationCodeGrant(config, input.callbackUrl, {
            pkceCodeVerifier: input.codeVerifier,
            expectedState: input.state,
          });
          accessToken = tokens.access_token;
        } catch (err) {
          env.log.warn({ err, provider: 'github' }, 'GitHub code exchange failed');
          throw new CmsError('PROVIDER_FAILED', 'Signing in with GitHub failed: GitHub did not confirm the sign-in');
        }
        const user = await apiGet<{ id?: unknown; login?: unknown; name?: unknown }>(
          env.fetch,
          `${api}/user`,
          accessToken,
        );
        const emails = await apiGet<unknown>(env.fetch, `${api}/user/emails`, accessToken);
        if ((typeof user.id !== 'number' && typeof user.id !== 'string') || user.id === '') {
          throw new CmsError('PROVIDER_FAILED', 'Signing in with GitHub failed: no user ID in its answer');
        }
        const primary = Array.isArray(emails)
          ? (emails as Array<{ email?: unknown; primary?: unknown; verified?: unknown }>).find(
              (e) => e.primary === true && typeof e.email === 'string',
            )
          : undefined;
        const name = typeof user.name === 'string' && user.name.trim() ? user.name.trim() : null;
        return {
          provider: 'github',
          subject: String(user.id),
          address: primary ? (primary.email as string) : null,
          addressVerified: primary?.verified === true,
          name: name ?? (typeof user.login === 'string' ? user.login : null),
        };
      },
    };
  },
};

async function apiGet<T>(fetcher: OutboundFetch, url: string, token: string): Promise<T> {
  let res: Response;
  try {
    res = await fetcher(url, {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'user-agent': 'cms-login',
        'x-github-api-version': '2022-11-28',
      },
    });
  } catch (err) {
    if (err instanceof CmsError) throw err;
    throw new CmsError('PROVIDER_FAILED', 'Signing in with GitHub failed: its API could not be reached');
  }
  if (res.status !== 200) {
    throw new CmsError('PROVIDER_FAILED', `Signing in with GitHub failed: its API answered ${res.status}`);
  }
  try {
    return (await res.json()) as T;
  } catch {
    throw new CmsError('PROVIDER_FAILED', 'Signing in with GitHub failed: its API did not answer JSON');
  }
}

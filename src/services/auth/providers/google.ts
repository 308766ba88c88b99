import { oauthDescriptor } from './descriptor.js';
import { oidcClient, stringClaim, trueClaim } from './oidc.js';
import type { LoginProvider, LoginProviderDefinition } from './types.js';

/**
 * Google (OpenID Connect). The address is the ID token's `email`, verified when
 * `email_verified` is true. The issuer is `https://accounts.google.com` unless
 * CMS_OAUTH_GOOGLE_ISSUER names another (tests, a compatible service).
 */
export const googleProvider: LoginProviderDefinition = {
  id: 'google',
  create(settings, env): LoginProvider {
    const oidc = oidcClient({
      provider: 'Google',
      issuer: settings.urls.issuer,
      clientId: settings.clientId!,
      clientSecret: settings.clientSecret!,
      scope: 'openid email profile',
      fetch: env.fetch,
      log: env.log,
    });
    return {
      id: 'google',
      label: 'Google',
      kind: 'button',
      descriptor: oauthDescriptor('google', 'Google'),
      async begin(input) {
        return { url: await oidc.authorizationUrl(input) };
      },
      async complete(input) {
        const claims = await oidc.claims(input);
        return {
          provider: 'google',
          subject: claims.sub,
          address: stringClaim(claims, 'email'),
          addressVerified: trueClaim(claims, 'email_verified'),
          name: stringClaim(claims, 'name'),
        };
      },
    };
  },
};

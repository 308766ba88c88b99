import { oauthDescriptor } from './descriptor.js';
import { entraAddress } from './entra-address.js';
import { oidcClient, stringClaim } from './oidc.js';
import type { LoginProvider, LoginProviderDefinition } from './types.js';

/**
 * Microsoft Entra ID (OpenID Connect, v2.0 endpoints). The issuer is
 * `{authority}/{tenant}/v2.0`: the authority is `https://login.microsoftonline.com`
 * unless CMS_OAUTH_ENTRA_AUTHORITY names a national cloud (or a test stand-in);
 * the tenant is ENTRA_TENANT_ID. For `common`, `organizations` and `consumers`
 * on login.microsoftonline.com, openid-client checks each token's issuer against
 * the template in the discovery document with the token's `tid`.
 * Which addresses count as verified: entra-address.ts.
 */
export const entraProvider: LoginProviderDefinition = {
  id: 'entra',
  create(settings, env): LoginProvider {
    const tenant = settings.tenantId!;
    const emailVerified = typeof settings.options.emailVerified === 'boolean' ? settings.options.emailVerified : null;
    const oidc = oidcClient({
      provider: 'Microsoft Entra ID',
      issuer: `${settings.urls.authority}/${tenant}/v2.0`,
      clientId: settings.clientId!,
      clientSecret: settings.clientSecret!,
      scope: 'openid email profile',
      fetch: env.fetch,
      log: env.log,
    });
    return {
      id: 'entra',
      label: 'Microsoft',
      kind: 'button',
      descriptor: oauthDescriptor('entra', 'Microsoft'),
      async begin(input) {
        return { url: await oidc.authorizationUrl(input) };
      },
      async complete(input) {
        const claims = await oidc.claims(input);
        const { address, verified } = entraAddress(claims, { tenant, emailVerified });
        return {
          provider: 'entra',
          subject: claims.sub,
          address,
          addressVerified: verified,
          name: stringClaim(claims, 'name'),
        };
      },
    };
  },
};

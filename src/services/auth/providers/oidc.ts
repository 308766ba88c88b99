import * as client from 'openid-client';
import { CmsError } from '../../../core/errors.js';
import type { Logger } from '../../../core/log.js';
import { type OutboundFetch, PROVIDER_TIMEOUT_MS } from './outbound.js';
import type { BeginInput, CompleteInput } from './types.js';

/** A discovery document is fetched again after this long, so key and endpoint changes are picked up. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

export interface OidcClientOptions {
  /** Provider id, for messages and the log. */
  provider: string;
  /** Issuer identifier; the discovery document is `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  fetch: OutboundFetch;
  log: Logger;
}

export type IdTokenClaims = client.IDToken;

const failed = (provider: string, message: string) =>
  new CmsError('PROVIDER_FAILED', `Signing in with ${provider} failed: ${message}`);

/** openid-client calls our guarded fetch (allowed origins, deadline, no redirects). */
function clientFetch(fetcher: OutboundFetch): client.CustomFetch {
  return (url, options) => fetcher(url, options as RequestInit);
}

/**
 * An OpenID Connect relying party for one issuer (openid-client): discovery
 * (cached for an hour), authorization URLs with PKCE S256, `state` and
 * `nonce`, and the code exchange with ID-token validation: issuer, audience,
 * nonce, expiry and the signature by the keys of the discovery document's JWKS.
 */
export function oidcClient(options: OidcClientOptions) {
  const { provider, fetch: fetcher } = options;
  fetcher.allow(options.issuer);
  const insecure = new URL(options.issuer).protocol === 'http:';
  let cached: { config: client.Configuration; at: number } | null = null;
  let pending: Promise<client.Configuration> | null = null;

  async function discover(): Promise<client.Configuration> {
    const config = await client.discovery(
      new URL(options.issuer),
      options.clientId,
      { client_secret: options.clientSecret },
      client.ClientSecretPost(options.clientSecret),
      {
        [client.customFetch]: clientFetch(fetcher),
        timeout: PROVIDER_TIMEOUT_MS / 1000,
        // http is possible only for loopback issuers (tests, local stand-ins): the configuration refuses it elsewhere.
        execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])],
      },
    );
    const meta = config.serverMetadata();
    // The endpoints the issuer's own document names are the only other places the client may call.
    for (const endpoint of [meta.token_endpoint, meta.jwks_uri]) if (endpoint) fetcher.allow(endpoint);
    if (!meta.authorization_endpoint || !meta.token_endpoint || !meta.jwks_uri) {
      throw failed(provider, 'the discovery document lacks an authorization, token or JWKS endpoint');
    }
    return config;
  }

  async function configuration(): Promise<client.Configuration> {
    const now = Date.now();
    if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.config;
    pending ??= discover().then(
      (config) => {
        cached = { config, at: Date.now() };
        pending = null;
        return config;
      },
      (err) => {
        pending = null;
        throw err;
      },
    );
    try {
      return await pending;
    } catch (err) {
      if (err instanceof CmsError) throw err;
      options.log.warn({ err, provider, issuer: options.issuer }, 'OpenID Connect discovery failed');
      throw failed(provider, 'its discovery document could not be read');
    }
  }

  async function authorizationUrl(input: BeginInput, extra: Record<string, string> = {}): Promise<string> {
    const config = await configuration();
    return client
      .buildAuthorizationUrl(config, {
        redirect_uri: input.redirectUri,
        scope: options.scope,
        state: input.state,
        nonce: input.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(input.codeVerifier),
        code_challenge_method: 'S256',
        ...extra,
      })
      .toString();
  }

  /** The validated ID token's claims for a callback. */
  async function claims(input: CompleteInput): Promise<IdTokenClaims> {
    const config = await configuration();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, input.callbackUrl, {
        pkceCodeVerifier: input.codeVerifier,
        expectedState: input.state,
        expectedNonce: input.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      if (err instanceof CmsError) throw err;
      options.log.warn({ err, provider }, 'OpenID Connect code exchange or ID token validation failed');
      throw failed(provider, 'the identity service did not confirm the sign-in');
    }
    const idToken = tokens.claims();
    if (!idToken || typeof idToken.sub !== 'string' || !idToken.sub) throw failed(provider, 'no ID token subject');
    return idToken;
  }

  return { authorizationUrl, claims };
}

/** A string claim, or null. */
export function stringClaim(claims: Record<string, unknown>, name: string): string | null {
  const v = claims[name];
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/** A claim meaning true (`true`, or the strings and numbers some issuers use for it). */
export function trueClaim(claims: Record<string, unknown>, name: string): boolean {
  const v = claims[name];
  return v === true || v === 'true' || v === 1 || v === '1';
}
